import { blockKey, historyAlias, systemEntropy, type Entropy, type NoteBlock } from "../blocks";
import { allSnippetFormats, exportingKinds, httpFileLines, isExportable, isRunnable, loadRunner, prepareContext, prepareExport, readResult, runnableFences, sendsThroughTransport, snippetFormats, writeSnippet } from "./block-runners";
import { cacheKey } from "./cache-key";
import { parseDotenv, readsDotenv } from "./dotenv-file";
import type { ExecutorDeps, HistoryRecorder, ResultCache } from "./executor";
import { CookieJars, type JarCookie } from "./cookie-jar";
import { failedError } from "./failures";
import type { BodyFiles } from "./file-parts";
import type { HistoryRow } from "./history-store";
import { maskSecrets } from "./mask-secrets";
import { ByteLruCache } from "./lru-cache";
import { aliasBlocks, type NoteProperties, type Preparation } from "./prepare";
import type { AskPrompts } from "./prompt-answers";
import type { HttpResult } from "./http/http-run";
import { failedBeforeStart, type BlockResult, type KindDeps, type KindOptions, type RunSnapshot } from "./result";
import type { BlockRun } from "./run-note";
import type * as RunNote from "./run-note";
import { SessionStore } from "./session";
import type { Transport } from "./transport";
import type { ResolvedAuth } from "../settings/auth-config";
import { AuthTokens, type InteractiveGrants } from "./auth/auth-tokens";
import { runAuth } from "./auth/run-auth";
import { crossNoteDependencies, otherNotes, type NoteLinks } from "./cross-note";
import type * as Imports from "./imports";
import type { TokenStore } from "./auth/token-store";

export { allSnippetFormats, exportingKinds, httpFileLines, isExportable, isRunnable, runnableFences, snippetFormats, writeSnippet };

/**
 * `# @import` (./imports.ts) is a text module, evaluated for the first note that may import
 * (docs/architecture.md, "Text modules"); a note without the word never loads it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
const imports = () => require("./imports") as typeof Imports;
const mayImport = (note: readonly NoteBlock[]) => note.some((b) => b.fence.content.includes("@import"));
/** Running blocks (./run-note.ts and its run graph) is a text module too, evaluated by the first run. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
const runNote = () => require("./run-note") as typeof RunNote;

/** The active environment as the runner needs it. */
export interface ActiveEnvironment {
	name: string;
	variables: Record<string, string>;
	/** Values of variables marked secret: masked in history URLs (the fallback to masking by span). */
	secretValues: string[];
	/** Names of the secret variables, and of those whose secret has no value. */
	secretNames: string[];
	unsetSecretNames: string[];
	/** The environment's auth configurations, their secrets read (`[environments.<env>.auth.*]`). */
	auth?: Readonly<Record<string, ResolvedAuth>>;
}

/**
 * Run history as the engine uses it: record per run (never waits: rows are queued until the
 * database is open), list for the History popover, move on rename. `DeferredHistory` is it.
 */
export interface EngineHistory extends HistoryRecorder {
	list(filePath: string, alias: string): Promise<HistoryRow[]>;
	renameFile(oldPath: string, newPath: string): void;
	/** Starts opening the database in the background (resolves when open). */
	ready(): Promise<unknown>;
}

/**
 * What the engine needs from where it runs. The plugin (`src/ui/plugin-services.ts`: requestUrl
 * or Node transports, vault storage, secret storage, notices) and the CLI (`src/cli/engine-ports.ts`:
 * Node transport, files, environment variables) are the two implementations. A later runner (a
 * database, a chat client) takes the same ports: a transport or a driver, history, the
 * environment with its secrets. Methods are called per run, so a changed setting applies to
 * the next run; one that throws fails that run's blocks with its message, nothing is sent.
 */
export interface EnginePorts {
	/** The transport to send with now. */
	transport(): Transport;
	/** Where runs are recorded; null keeps none (the CLI outside a vault). */
	history(): EngineHistory | null;
	environment(): ActiveEnvironment;
	/** Timeout of a block with no `timeout=` (user.toml `general.timeout`). */
	defaultTimeoutMs(): number;
	/** How many blocks of a run may be in flight at once (user.toml `general.parallel`); default 1. */
	parallel?(): number;
	/** What the kinds' runners need from the host, by kind (connections and drivers for db blocks); a kind left out fails its blocks saying so. */
	kinds?(): Partial<KindDeps>;
	/** Reads `< file` body parts (vault paths; absolute ones where the note is outside a vault). */
	files?(): BodyFiles | undefined;
	/** False: no response cache (`--no-cache`). Default true. */
	readonly caching?: boolean;
	/** Writes pending history and closes sockets; the engine calls it once, from `close`. */
	close?(): Promise<void>;
	/** The grants that need a person: a browser and a loopback or protocol-handler redirect, a device-code prompt. */
	authInteraction?(): InteractiveGrants | undefined;
	/** The clock tokens expire by (tests move it); default Date.now. */
	clock?: () => number;
	/** Other notes, for `{{[[Note]]#alias.…}}` (absent: such references are unresolved, saying so). */
	notes?(): NoteLinks | undefined;
	/** Where `persist = true` tokens are kept across sessions (the plugin: Obsidian's secret storage); none: for the session only. */
	tokenStore?(): TokenStore;
	/** A `# @poll` block's poll ended (passed, max reached, stopped): the plugin says so in a notice. */
	pollEnded?(filePath: string, block: NoteBlock, result: BlockResult): void;
	/** The notes' front matter: read for `{{this.<name>}}`, written after a run that set `# @property` values (absent: neither). */
	noteProperties?(): NotePropertiesPort;
	/** Asks a block's `# @prompt` values as it starts (the plugin's dialog; the CLI's --var and terminal); absent: such a block fails, saying so. */
	ask?: AskPrompts;
	/** The text of the `.env` file in the note's folder, for `{{$dotenv NAME}}` (null: there is none); read only for a note that uses one. */
	dotenv?(filePath: string): Promise<string | null>;
}

/** A note's front-matter properties where the engine runs (Obsidian's metadata cache and `processFrontMatter`; a file in the CLI). */
export interface NotePropertiesPort {
	read(filePath: string): NoteProperties | undefined;
	/** Sets these properties, the others and the note's text kept; reports its own failure (it never rejects). */
	write(filePath: string, values: Record<string, unknown>): Promise<void>;
}

/** Per-run options: the plugin passes `force`; the CLI observes the run to print it. */
export interface RunOptions {
	/** Skip the cache lookup and refresh the entry (`block.force_run`). */
	force?: boolean;
	/** Every block the run will end, before any starts, in the order the runs are returned (the note's). */
	onPlan?: (blocks: readonly NoteBlock[]) => void;
	onBlockStart?: (block: NoteBlock, reason: "target" | "dependency") => void;
	onUpdate?: (block: NoteBlock, snapshot: RunSnapshot) => void;
	onBlockDone?: (block: NoteBlock, result: BlockResult) => void;
	/** How the targets run, by kind: a db block's more rows than max_rows (load more), or its plan (EXPLAIN). */
	kindOptions?: Partial<KindOptions>;
	/**
	 * Stops the whole run (the CLI's Ctrl+C): the running blocks are cancelled and every later one
	 * ends cancelled before it is sent. What finished stays finished, and its history is kept.
	 */
	signal?: AbortSignal;
}

/**
 * One engine for the plugin and the CLI: sessions (the one source every view of a note reads),
 * the response cache, history and the run composition. Nothing here knows a screen.
 */
export interface Engine {
	readonly sessions: SessionStore;
	readonly cache: ResultCache & { clear(): void };
	/** A cookie jar per environment, for the session (in memory; never in history). */
	readonly cookies: CookieJars;
	/** The active environment's jar, as the Cookies tab lists it and "Clear cookies" empties it. */
	cookieJar(): { environment: string; cookies: JarCookie[]; clear(): void };
	/** The session's OAuth tokens, per environment and configuration ("Clear auth tokens", the Auth view, masking). */
	readonly auth: AuthTokens;
	/**
	 * Runs `targets` of `note` and never rejects: whatever fails while preparing the run
	 * (transport, settings, secrets) or inside the engine ends each unfinished target in
	 * `failed`, with the message on the block. Each block gets its own cancel signal
	 * (`sessions.note(filePath).cancel(blockKey(block))`).
	 */
	run(filePath: string, note: readonly NoteBlock[], targets: readonly NoteBlock[], opts?: RunOptions): Promise<BlockRun[]>;
	/**
	 * The request Run would send for `block` now, without sending it: the same variables (block,
	 * file, environment), secrets and last results of the note's aliases. Export (the plugin's and
	 * the CLI's) and the chat's block context take it from here. It never runs another block: a
	 * reference to an alias with no result fails, naming the alias in `notRun`. Each kind prepares
	 * its own blocks (`KindRunner.prepareExport`) and adds what its formats need (a stream's
	 * protocol and resolved messages); a kind without an export fails.
	 */
	prepare(filePath: string, note: readonly NoteBlock[], block: NoteBlock): Preparation;
	/**
	 * Reads the note's `.env` file for `{{$dotenv NAME}}` when a block of it uses one, as a run does
	 * first: `prepare` cannot wait for a file, so an export that runs nothing (the CLI's) calls this before it.
	 */
	readNoteFiles(filePath: string, note: readonly NoteBlock[]): Promise<void>;
	/** Whether Run runs the block (`isRunnable`): what run all, the block keys and the chat's block pick. */
	isRunnable(block: NoteBlock): boolean;
	/**
	 * Loads what a first run of a `kind` block needs, so that Run does not: the run composition, the
	 * kind's engine (text modules of main.js) and, for a kind that sends through it, the transport.
	 * The plugin calls it, in an idle moment, once such a block is on screen; a run without it
	 * loads them itself.
	 */
	prepareToRun(kind: string): void;
	/** Whether the block's kind exports to a snippet (`isExportable`): what export offers. */
	isExportable(block: NoteBlock): boolean;
	/** The block's runs, newest first (empty without history). */
	listHistory(filePath: string, block: NoteBlock): Promise<HistoryRow[]>;
	/** A renamed note keeps its results and its history. */
	renameFile(oldPath: string, newPath: string): void;
	/** Cancels every run, then closes the ports (history written, sockets closed). */
	close(): Promise<void>;
}

export function createEngine(ports: EnginePorts): Engine {
	const sessions = new SessionStore();
	const cache = new ByteLruCache<HttpResult>();
	const cookies = new CookieJars();
	const auth = new AuthTokens(ports.clock, ports.tokenStore?.());
	/** Other notes' blocks being run for a `{{[[Note]]#alias.…}}`, shared by every run of the engine. */
	const crossNoteRuns = new Map<string, Promise<BlockResult>>();
	/** After close(): an idle preparation queued before it makes nothing (no transport for ports that are gone). */
	let closed = false;
	const links = () => ports.notes?.();
	/** What the blocks of a note read in a run, and in a preparation for export: one scope for both. */
	const scopeOf = (filePath: string, note: readonly NoteBlock[], env: ActiveEnvironment, noteLinks = links(), properties = ports.noteProperties?.().read(filePath)) => ({
		...(noteLinks ? { notes: otherNotes(noteLinks, filePath, (path) => sessions.note(path), readResult), ...(mayImport(note) ? { imports: imports().importedResults(note, filePath, (path) => sessions.note(path), readResult) } : {}) } : {}),
		env: env.variables,
		...(properties ? { properties } : {}),
		results: sessions.note(filePath),
		defaultTimeoutMs: ports.defaultTimeoutMs(),
		secrets: { names: new Set(env.secretNames), unset: new Set(env.unsetSecretNames) },
		// Always there: a request can carry its own configuration (`Authorization: openid ...`) without any in user.toml.
		auth: runAuth({ environment: env.name, configs: env.auth ?? {}, tokens: auth, transport: () => ports.transport(), interactive: ports.authInteraction?.() }),
	});

	/** Each note's `.env` values as its last run read them: export (which cannot wait for a read) resolves `$dotenv` with them. */
	const dotenvValues = new Map<string, Record<string, string>>();
	/** Built-ins' sources for a note: `$dotenv` reads the values of its `.env`, when one was read. */
	const entropyOf = (filePath: string): Entropy | undefined => {
		const values = dotenvValues.get(filePath);
		return values ? { ...systemEntropy, dotenv: (name) => (Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined) } : undefined;
	};
	/** Whether a run of the note reads its `.env` first: a block uses `$dotenv` and the host can read files. */
	const usesDotenv = (note: readonly NoteBlock[]): boolean => ports.dotenv !== undefined && readsDotenv(note);
	/** Reads the note's `.env` (a file gone since is forgotten). */
	const readDotenv = async (filePath: string): Promise<void> => {
		const text = (await ports.dotenv?.(filePath)) ?? null;
		if (text === null) dotenvValues.delete(filePath);
		else dotenvValues.set(filePath, parseDotenv(text));
	};

	/** `chain`: the blocks of other notes waiting on this run (cross-note.ts), empty for a run the user started. */
	const runPrepared = async (filePath: string, note: readonly NoteBlock[], targets: readonly NoteBlock[], opts: RunOptions, finished: Set<NoteBlock>, chain: readonly string[] = []): Promise<BlockRun[]> => {
		// Only a note that uses `$dotenv` waits for its file: any other run starts at once.
		if (usesDotenv(note)) await readDotenv(filePath);
		const entropy = entropyOf(filePath);
		const session = sessions.note(filePath);
		const noteLinks = links();
		const history = ports.history();
		const env = ports.environment();
		let transport: Transport | undefined;
		const deps: ExecutorDeps = {
			// Made by the run's first block that sends through it: a run of db blocks alone makes none.
			get transport() {
				return (transport ??= ports.transport());
			},
			cacheKey,
			cache: ports.caching === false ? undefined : cache,
			history: history ?? undefined,
			kinds: ports.kinds?.(),
			files: ports.files?.(),
			cookies: cookies.for(env.name),
		};
		const secretValues = env.secretValues;
		const controllers = new Map<string, AbortController>();
		// What a block of this run sets, the blocks after it read (the metadata cache updates later).
		const notePort = ports.noteProperties?.();
		const properties: Record<string, unknown> = { ...notePort?.read(filePath) };
		const writes: Array<Promise<void>> = [];
		const stopAll = () => {
			for (const c of controllers.values()) c.abort();
		};
		opts.signal?.addEventListener("abort", stopAll);
		const runs = runNote().runBlocks(note, targets, {
			...scopeOf(filePath, note, env, noteLinks, properties),
			...(entropy ? { entropy } : {}),
			...(noteLinks ? { runOtherNotesFirst: crossNoteDependencies({ links: noteLinks, fromPath: filePath, chain, results: (path) => sessions.note(path), inFlight: crossNoteRuns, run: (path, other, block, waiting) => runOtherNote(path, other, block, opts.signal, waiting), ...(mayImport(note) ? { imported: imports().importedNeeds((path) => noteLinks.blocks(path), filePath, note, new Set(aliasBlocks(note).keys())) } : {}) }) } : {}),
			filePath,
			deps,
			force: opts.force,
			parallel: ports.parallel?.() ?? 1,
			onPlan: opts.onPlan,
			ask: ports.ask,
			maskUrl: (u) => maskSecrets(u, [...secretValues, ...auth.values()]),
			signalFor: (block) => {
				const c = session.begin(blockKey(block));
				controllers.set(blockKey(block), c);
				if (opts.signal?.aborted) c.abort();
				return c.signal;
			},
			onBlockStart: opts.onBlockStart,
			kindOptions: opts.kindOptions,
			onUpdate: (block, snapshot) => {
				session.update(blockKey(block), snapshot);
				opts.onUpdate?.(block, snapshot);
			},
			onBlockDone: (block, result) => {
				finished.add(block);
				if (result.properties?.ok && notePort) {
					Object.assign(properties, result.properties.values);
					writes.push(notePort.write(filePath, result.properties.values));
				}
				if (result.poll) ports.pollEnded?.(filePath, block, result);
				const key = blockKey(block);
				session.update(key, result);
				const c = controllers.get(key);
				if (c) {
					session.end(key, c);
					controllers.delete(key);
				}
				opts.onBlockDone?.(block, result);
			},
		}).finally(() => opts.signal?.removeEventListener("abort", stopAll));
		// The database opens while the first request is in flight (in a later task: the request goes out first).
		void history?.ready();
		// The run ends once the note holds what it set (the CLI exits after it).
		return runs.then(async (done) => (await Promise.all(writes), done));
	};

	/** Another note's block, run for a reference: its own note's variables and session, this run's Stop; the engine's run never rejects. */
	const runOtherNote = async (path: string, note: readonly NoteBlock[], block: NoteBlock, signal: AbortSignal | undefined, chain: readonly string[]): Promise<BlockResult> => {
		try {
			const runs = await runPrepared(path, note, [block], { signal }, new Set(), chain);
			const result = runs.find((r) => r.block === block)?.result;
			// A cycle met on the way (in that note's own dependencies) is what stopped it: the referring block names it too.
			const cycle = runs.find((r) => r.result.error?.code === "dependency_cycle")?.result;
			if (cycle && result?.state === "failed") return cycle;
			return result ?? failedBeforeStart(failedError("setup_failed", undefined, `${path} did not run ${block.alias ?? historyAlias(block)}`));
		} catch (e) {
			return failedBeforeStart(failedError("setup_failed", undefined, e instanceof Error ? e.message : String(e)));
		}
	};

	return {
		sessions,
		cache,
		cookies,
		auth,
		cookieJar() {
			const environment = ports.environment().name;
			return { environment, cookies: cookies.list(environment), clear: () => cookies.clear(environment) };
		},
		async run(filePath, note, targets, opts = {}) {
			const finished = new Set<NoteBlock>();
			try {
				return await runPrepared(filePath, note, targets, opts, finished);
			} catch (e) {
				const result = failedBeforeStart(failedError("setup_failed", undefined, e instanceof Error ? e.message : String(e)));
				const session = sessions.note(filePath);
				const unfinished = targets.filter((b) => !finished.has(b));
				for (const b of unfinished) {
					session.update(blockKey(b), result);
					opts.onBlockDone?.(b, result);
				}
				return unfinished.map((block) => ({ block, result, dependency: false }));
			}
		},
		prepare(filePath, note, block) {
			try {
				const entropy = entropyOf(filePath);
				const ctx = prepareContext(note, block, { ...scopeOf(filePath, note, ports.environment()), ...(entropy ? { entropy } : {}) });
				return prepareExport(block, ctx);
			} catch (e) {
				// A port that fails (the secret storage, the settings) fails the preparation as it fails a run.
				return { ok: false, error: failedError("setup_failed", undefined, e instanceof Error ? e.message : String(e)), notRun: [] };
			}
		},
		readNoteFiles: async (filePath, note) => {
			if (usesDotenv(note)) await readDotenv(filePath);
		},
		isRunnable,
		prepareToRun(kind) {
			if (closed) return;
			runNote();
			loadRunner(kind);
			if (!sendsThroughTransport(kind)) return;
			try {
				ports.transport();
			} catch {
				// A transport that cannot be made fails the run itself, saying why: nothing to say before it.
			}
		},
		isExportable,
		listHistory: async (filePath, block) => (await ports.history()?.list(filePath, historyAlias(block))) ?? [],
		renameFile(oldPath, newPath) {
			sessions.rename(oldPath, newPath);
			ports.history()?.renameFile(oldPath, newPath);
		},
		async close() {
			closed = true;
			sessions.close();
			await ports.close?.();
		},
	};
}
