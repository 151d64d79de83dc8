import { DeferredHistory } from "../runner/deferred-history";
import { maskSecrets, HistoryStore } from "../runner/history-store";
import { cacheKey } from "../runner/cache-key";
import { createNodeTransport } from "../runner/http/node-transport";
import { ByteLruCache } from "../runner/lru-cache";
import type { ExecutorDeps } from "../runner/executor";
import type { BlockResult } from "../runner/result";
import { DbDrivers } from "../runner/db/connect";
import type { Settings } from "../settings/user-settings";
import { cliDbModules } from "./db-modules";
import { openNativeHistory } from "./native-history";
import { nodeLockOptions, nodeStorage } from "./node-storage";

/** The engine the CLI runs: the plugin's, with the node transport and the vault's history file. */
export interface CliEngine {
	deps: ExecutorDeps;
	maskUrl(url: string): string;
	close(): Promise<void>;
}

/**
 * History opens while the first request is in flight: a run never waits for it; rows are
 * written on close. Native SQLite when installed (no WebAssembly to compile per process),
 * else sql.js (or when RUNNABLE_BLOCKS_HISTORY_DRIVER=sqljs); both write the file the plugin reads.
 */
export function createCliEngine(opts: { historyPath: string | null; useCache: boolean; secretValues: string[]; warn: (s: string) => void; connections?: Settings["connections"]; dbBase?: string }): CliEngine {
	const transport = createNodeTransport();
	const drivers = new DbDrivers(cliDbModules(opts.dbBase ?? process.cwd()));
	const historyPath = opts.historyPath;
	const history = historyPath
		? new DeferredHistory(
				async () => (process.env.RUNNABLE_BLOCKS_HISTORY_DRIVER === "sqljs" ? null : openNativeHistory(historyPath)) ?? HistoryStore.open(nodeStorage, historyPath, { onNotice: (m) => opts.warn(`${m}\n`), debounceMs: 200, lock: nodeLockOptions() }),
				(e) => opts.warn(`run history is unavailable (${e instanceof Error ? e.message : String(e)})\n`),
			)
		: null;
	void history?.ready();
	return {
		deps: {
			transport,
			cacheKey,
			cache: opts.useCache ? new ByteLruCache<BlockResult>() : undefined,
			history: history ?? undefined,
			db: { connections: opts.connections ?? {}, drivers },
		},
		maskUrl: (url) => maskSecrets(url, opts.secretValues),
		close: async () => {
			transport.close();
			await drivers.closeAll();
			await history?.close();
		},
	};
}
