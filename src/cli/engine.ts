import { maskSecrets, HistoryStore } from "../runner/history-store";
import { cacheKey } from "../runner/cache-key";
import { createNodeTransport } from "../runner/http/node-transport";
import { ByteLruCache } from "../runner/lru-cache";
import type { ExecutorDeps } from "../runner/executor";
import type { BlockResult } from "../runner/result";
import { nodeStorage } from "./node-storage";

/** The engine the CLI runs: the plugin's, with the node transport and the vault's history file. */
export interface CliEngine {
	deps: ExecutorDeps;
	maskUrl(url: string): string;
	close(): Promise<void>;
}

export async function createCliEngine(opts: { historyPath: string | null; useCache: boolean; secretValues: string[]; warn: (s: string) => void }): Promise<CliEngine> {
	const transport = await createNodeTransport();
	const history = opts.historyPath ? await HistoryStore.open(nodeStorage, opts.historyPath, { onNotice: (m) => opts.warn(`${m}\n`), debounceMs: 200 }) : null;
	return {
		deps: {
			transport,
			cacheKey,
			cache: opts.useCache ? new ByteLruCache<BlockResult>() : undefined,
			history: history ?? undefined,
		},
		maskUrl: (url) => maskSecrets(url, opts.secretValues),
		close: async () => {
			transport.close();
			await history?.close();
		},
	};
}
