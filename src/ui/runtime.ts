import type { NoteBlock } from "../blocks";
import type { ExecutorDeps, HistoryRecorder, ResultCache } from "../runner/executor";
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
	/** Values of variables marked secret: masked in history URLs. */
	secretValues: string[];
}

/** History as the plugin uses it: record per run, list for the popover, move on rename. */
export interface PluginHistory extends HistoryRecorder {
	list(filePath: string, alias: string): Promise<HistoryRowView[]>;
	renameFile(oldPath: string, newPath: string): Promise<void> | void;
}

/**
 * The plugin's engine services, created lazily: nothing here runs during `onload`
 * (the transport's Node modules and sql.js load on first use).
 */
export interface RuntimeServices {
	transport(): Promise<Transport>;
	cacheKey(request: PreparedRequest, env: Record<string, string>): string;
	cache: ResultCache & { clear(): void };
	history(): Promise<PluginHistory | null>;
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

	async run(filePath: string, note: readonly NoteBlock[], targets: readonly NoteBlock[], force = false): Promise<BlockRun[]> {
		const session = this.sessions.note(filePath);
		const [transport, history] = await Promise.all([this.services.transport(), this.services.history()]);
		const deps: ExecutorDeps = {
			transport,
			cacheKey: (r, env) => this.services.cacheKey(r, env),
			cache: this.services.cache,
			history: history ?? undefined,
		};
		const env = this.services.environment();
		const controllers = new Map<string, AbortController>();
		return runBlocks(note, targets, {
			filePath,
			env: env.variables,
			results: session,
			deps,
			force,
			defaultTimeoutMs: this.services.defaultTimeoutMs(),
			maskUrl: (u) => this.services.maskUrl(u),
			signalFor: (block) => {
				const c = session.begin(blockKey(block));
				controllers.set(blockKey(block), c);
				return c.signal;
			},
			onUpdate: (block, snapshot) => session.update(blockKey(block), snapshot),
			onBlockDone: (block, result: BlockResult) => {
				const key = blockKey(block);
				session.update(key, result);
				const c = controllers.get(key);
				if (c) session.end(key, c);
			},
		});
	}

	async listHistory(filePath: string, block: NoteBlock): Promise<HistoryRowView[]> {
		const history = await this.services.history();
		return history ? history.list(filePath, historyAlias(block)) : [];
	}

	async renameFile(oldPath: string, newPath: string): Promise<void> {
		this.sessions.rename(oldPath, newPath);
		const history = await this.services.history();
		await history?.renameFile(oldPath, newPath);
	}
}
