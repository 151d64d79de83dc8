import type { BinaryStorage } from "./binary-storage";
import type { HistoryOptions } from "./history-schema";
import { loadSqlJs } from "./sqljs";
import { SqlJsHistory } from "./sqljs-history";

export * from "./history-schema";
export { loadSqlJs, SqlJsHistory };

/**
 * Run history in sql.js on the calling thread: the CLI without native SQLite, the tests, and the
 * plugin where no worker can start (its history otherwise runs in the SQLite worker,
 * worker-history.ts). sql.js is loaded on first use.
 */
export const HistoryStore = {
	open: async (storage: BinaryStorage, path: string, options: HistoryOptions = {}): Promise<SqlJsHistory> => SqlJsHistory.open(await loadSqlJs(), storage, path, options),
};
export type HistoryStore = SqlJsHistory;
