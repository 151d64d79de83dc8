import type { NoteBlock } from "../blocks";
import { failedBeforeStart, type ExecutorDeps, type HistoryRecorder, type ResultCache } from "../runner/executor";
import type { PreparedRequest } from "../runner/request";
import type { BlockResult } from "../runner/result";
import { historyAlias, runBlocks, type BlockRun } from "../runner/run-note";
import { blockKey, SessionStore } from "../runner/session";
import type { Transport } from "../runner/transport";
import type { HistoryRowView } from "./panel/response-panel";

/** The active environment as the runner needs it. */
export interface ActiveEnvironment {
	name: string;
	variables: Record<string, string>;
	/** Values of variables marked secret: masked in history URLs (the fallback to masking by span). */
	secretValues: string[];
	/** Names of the secret variables, and of those whose secret has no value. */
	secretNames: string[];
	unsetSecretNames: string[];
}

/**
 * History as the plugin uses it: record per run (never waits: rows are queued until the
 * database is open), list for the popover, move on rename.
 */
export interface PluginHistory extends HistoryRecorder {
	list(filePath: string, alias: string): Promise<HistoryRowView[]>;
	renameFile(oldPath: string, newPath: string): void;
	/** Starts opening the database in the background (resolves when open). */
	ready(): Promise<unknown>;
}

/**
 * The plugin's engine services, created lazily: nothing here runs during `onload`
 * (the transport's Node modules and sql.js load on first use). `transport` and
 * `environment` throw when they cannot be had; the run reports it on its blocks.
 */
export interface RuntimeServices {
	transport(): Transport;
	cacheKey(request: PreparedRequest, env: Record<string, string>): string;
	cache: ResultCache & { clear(): void };
	history(): PluginHistory;
	environment(): ActiveEnvironment;
	defaultTimeoutMs(): number;
	maskUrl(url: string): string;
}

/**
 * Runs blocks for the UI: resolves the engine services, publishes every snapshot to the
 * note's session store and gives each block its own cancel signal.
 */
export class PluginRuntime {
	readonly sessions = new SessionStore();

	constructor(private readonly services: RuntimeServices) {}

	get cache(): RuntimeServices["cache"] {
		return this.services.cache;
	}

	/**
	 * Runs `targets` and never rejects: whatever fails while preparing the run (transport,
	 * settings, secrets) or inside the engine ends each unfinished target in `failed`, with
	 * the message on the block.
	 */
	async run(filePath: string, note: readonly NoteBlock[], targets: readonly NoteBlock[], force = false): Promise<BlockRun[]> {
		const session = this.sessions.note(filePath);
		const finished = new Set<NoteBlock>();
		try {
			return await this.runPrepared(filePath, note, targets, force, finished);
		} catch (e) {
			const result = failedBeforeStart({ code: "setup_failed", message: `Could not run: ${e instanceof Error ? e.message : String(e)}` });
			const unfinished = targets.filter((b) => !finished.has(b));
			for (const b of unfinished) session.update(blockKey(b), result);
			return unfinished.map((block) => ({ block, result, dependency: false }));
		}
	}

	private async runPrepared(filePath: string, note: readonly NoteBlock[], targets: readonly NoteBlock[], force: boolean, finished: Set<NoteBlock>): Promise<BlockRun[]> {
		const session = this.sessions.note(filePath);
		const history = this.services.history();
		const deps: ExecutorDeps = {
			transport: this.services.transport(),
			cacheKey: (r, env) => this.services.cacheKey(r, env),
			cache: this.services.cache,
			history,
		};
		const env = this.services.environment();
		const defaultTimeoutMs = this.services.defaultTimeoutMs();
		const controllers = new Map<string, AbortController>();
		const runs = runBlocks(note, targets, {
			filePath,
			env: env.variables,
			results: session,
			deps,
			force,
			defaultTimeoutMs,
			maskUrl: (u) => this.services.maskUrl(u),
			secrets: { names: new Set(env.secretNames), unset: new Set(env.unsetSecretNames) },
			signalFor: (block) => {
				const c = session.begin(blockKey(block));
				controllers.set(blockKey(block), c);
				return c.signal;
			},
			onUpdate: (block, snapshot) => session.update(blockKey(block), snapshot),
			onBlockDone: (block, result: BlockResult) => {
				finished.add(block);
				const key = blockKey(block);
				session.update(key, result);
				const c = controllers.get(key);
				if (c) session.end(key, c);
			},
		});
		// The database opens while the first request is in flight (in a later task: the request goes out first).
		void history.ready();
		return runs;
	}

	listHistory(filePath: string, block: NoteBlock): Promise<HistoryRowView[]> {
		return this.services.history().list(filePath, historyAlias(block));
	}

	renameFile(oldPath: string, newPath: string): void {
		this.sessions.rename(oldPath, newPath);
		this.services.history().renameFile(oldPath, newPath);
	}
}
