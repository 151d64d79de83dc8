import { readFile } from "node:fs/promises";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { DeferredHistory } from "../runner/deferred-history";
import type { BodyFiles } from "../runner/file-parts";
import type { EnginePorts, NotePropertiesPort } from "../runner/engine";
import type { NoteLinks } from "../runner/cross-note";
import { readFrontMatter, setFrontMatter } from "./front-matter";
import { HistoryStore } from "../runner/history-store";
import { createNodeTransport } from "../runner/http/node-transport";
import type { DbDeps } from "../runner/db/db-result";
import { DbDrivers } from "../runner/db/connect";
import { withBuiltInConnections } from "../settings/connections";
import type { Settings } from "../settings/user-settings";
import { cliDbModules } from "./db-modules";
import { openNativeHistory } from "./native-history";
import { nodeLockOptions, nodeStorage } from "./node-storage";
import type { Transport } from "../runner/transport";
import { secretEnvName, type CliEnvironment } from "./vault";
import { tlsFromSettings, type TlsFor } from "../runner/http/tls-options";
import { interactiveGrants } from "../runner/auth/interactive-grants";
import type { SignInHost } from "../runner/auth/sign-in";
import type { AskPrompts } from "../runner/prompt-answers";

export interface CliPortOptions {
	historyPath: string | null;
	useCache: boolean;
	/** The selected environment (its `--var` overrides included). */
	env: CliEnvironment;
	defaultTimeoutMs: number;
	/** `[general] parallel` (default 1: one block after another). */
	parallel?: number;
	warn: (s: string) => void;
	/** `[connections.*]` for db blocks, and the folder their vault-relative sqlite paths start from. */
	connections?: Settings["connections"];
	dbBase?: string;
	/** The vault root `< file` paths start from (null: the note is outside a vault and paths are absolute). */
	filesRoot?: string | null;
	/** Wraps the transport (a suite's --max-requests budget). */
	guardTransport?: (transport: Transport) => Transport;
	/** Other notes, for `{{[[Note]]#alias.…}}` (src/cli/note-links.ts). */
	noteLinks?: NoteLinks;
	/** How a person signs in (`run`: the link on stderr, the browser on a terminal); without it, grants that need a person say so. */
	signIn?: SignInHost;
	/** Whether notes' front matter is read for `{{this.<name>}}` and written by `# @property` (`run` sets it). */
	noteProperties?: boolean;
	/** `# @prompt` answers (`run`: --var, then the terminal); without it a prompted block fails, saying so. */
	ask?: AskPrompts;
	/** `[tls.*]` of user.toml, for the node transport (`cliTls`). */
	tls?: TlsFor;
}

/**
 * The engine's ports in the CLI: the node transport, the vault's history file, the
 * environment chosen on the command line (secrets from RUNNABLE_BLOCKS_SECRET_*).
 * History opens while the first request is in flight: a run never waits for it; rows are
 * written on close. Native SQLite when installed (no WebAssembly to compile per process),
 * else sql.js (or when RUNNABLE_BLOCKS_HISTORY_DRIVER=sqljs); both write the file the plugin reads.
 */
export function cliPorts(opts: CliPortOptions): EnginePorts {
	const node = createNodeTransport(opts.tls ? { tls: opts.tls } : {});
	const transport = opts.guardTransport?.(node) ?? node;
	const history = opts.historyPath ? cliHistory(opts.historyPath, opts.warn) : null;
	const drivers = new DbDrivers(cliDbModules(opts.dbBase ?? process.cwd(), history));
	const db: DbDeps = { connections: withBuiltInConnections(opts.connections ?? {}), drivers };
	void history?.ready();
	const environment = {
		name: opts.env.name,
		variables: opts.env.variables,
		secretValues: opts.env.secretValues,
		secretNames: [...opts.env.secrets.names],
		unsetSecretNames: [...opts.env.secrets.unset],
		auth: opts.env.auth,
	};
	return {
		transport: () => transport,
		history: () => history,
		environment: () => environment,
		defaultTimeoutMs: () => opts.defaultTimeoutMs,
		parallel: () => opts.parallel ?? 1,
		caching: opts.useCache,
		kinds: () => ({ db, ...(opts.tls ? { websocket: { tls: opts.tls } } : {}) }),
		files: () => nodeBodyFiles(opts.filesRoot ?? null),
		notes: () => opts.noteLinks,
		...(opts.signIn ? { authInteraction: () => interactiveGrants(opts.signIn as SignInHost) } : {}),
		...(opts.ask ? { ask: opts.ask } : {}),
		dotenv: (path) => dotenvBeside(vaultFile(opts.filesRoot ?? null, path)),
		...(opts.noteProperties ? { noteProperties: () => noteFileProperties(opts.filesRoot ?? null, opts.warn) } : {}),
		close: async () => {
			node.close();
			await drivers.closeAll();
			await history?.close();
		},
	};
}

/**
 * The notes' front matter on disk (the note run and those its `{{[[Note]]#…}}` references run):
 * read when a run starts, rewritten (the rest of the note kept) after a run that set properties.
 * `root`: the vault paths the engine names notes by start there (null: they are absolute).
 */
export function noteFileProperties(root: string | null, warn: (s: string) => void): NotePropertiesPort {
	return {
		read(path) {
			const file = vaultFile(root, path);
			const found = readFrontMatter(readFileSync(file, "utf8"));
			if (found.ok) return found.properties;
			warn(`runnable-blocks: ${file}: ${found.message}; {{this.…}} reads no properties\n`);
			return undefined;
		},
		async write(path, values) {
			const file = vaultFile(root, path);
			try {
				const patched = setFrontMatter(readFileSync(file, "utf8"), values);
				if (patched.ok) writeFileSync(file, patched.text);
				else warn(`runnable-blocks: properties not set in ${file}: ${patched.message}\n`);
			} catch (e) {
				warn(`runnable-blocks: properties not set in ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
			}
		},
	};
}

/** `[tls.*]`: PEM files from the vault (or absolute paths), passphrases from RUNNABLE_BLOCKS_SECRET_<ID>. */
export function cliTls(settings: Settings, root: string | null): TlsFor {
	return tlsFromSettings(() => settings.tls, (path) => readText(vaultFile(root, path)), (id) => process.env[secretEnvName(id)]);
}

/** The `.env` file in the note's folder, for `{{$dotenv NAME}}`; null when there is none. */
export function dotenvBeside(notePath: string): Promise<string | null> {
	return readText(join(dirname(notePath), ".env"));
}

/** A file's text, or null when there is none (`nodeStorage.read`). */
async function readText(path: string): Promise<string | null> {
	const bytes = await nodeStorage.read(path);
	return bytes === null ? null : new TextDecoder().decode(bytes);
}

/** A vault path on disk: below `root`, or as it is when absolute or outside a vault. */
function vaultFile(root: string | null, path: string): string {
	return resolve(isAbsolute(path) || root === null ? path : join(root, path));
}

/**
 * The vault's run history, opened in the background on first use. Native SQLite when installed
 * (no WebAssembly to compile per process), else sql.js (or when RUNNABLE_BLOCKS_HISTORY_DRIVER=sqljs).
 */
export function cliHistory(historyPath: string, warn: (s: string) => void): DeferredHistory {
	return new DeferredHistory(
		async () => (process.env.RUNNABLE_BLOCKS_HISTORY_DRIVER === "sqljs" ? null : openNativeHistory(historyPath)) ?? HistoryStore.open(nodeStorage, historyPath, { onNotice: (m) => warn(`${m}\n`), debounceMs: 200, lock: nodeLockOptions() }),
		(e) => warn(`run history is unavailable (${e instanceof Error ? e.message : String(e)})\n`),
	);
}

/** `< file` parts read from disk: vault paths below `root`, absolute paths outside a vault. */
export function nodeBodyFiles(root: string | null): BodyFiles {
	const absolute = (path: string) => vaultFile(root, path);
	return {
		locate: (path) => {
			const abs = absolute(path);
			return statSync(abs, { throwIfNoEntry: false })?.isFile() ? abs : null;
		},
		read: async (path) => {
			const abs = absolute(path);
			try {
				return new Uint8Array(await readFile(abs));
			} catch (e) {
				if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return null;
				throw e;
			}
		},
	};
}
