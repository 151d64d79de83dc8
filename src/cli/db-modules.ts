/**
 * The CLI's database ports: SQLite files of the vault through sql.js in a worker thread (written
 * back atomically, for a writable connection), `pg` and `mysql2` required directly (the CLI runs
 * in Node), and secrets from RUNNABLE_BLOCKS_SECRET_<ID>.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type * as MysqlPromise from "mysql2/promise";
import type * as Pg from "pg";
import type { DbModules } from "../runner/db/connect";
import { historySqliteFile, type HistorySnapshots } from "../runner/db/history-connection";
import type { SqliteFile } from "../runner/db/sqlite";
import { createWorkerSqliteDriver, SqliteWorkers } from "../runner/db/worker-driver";
import { loadSqlJs } from "../runner/sqljs";
import { threadWorker } from "./sqlite-thread";
import { secretEnvName } from "./vault";

/** A vault-relative SQLite path as a file; outside a vault, relative to the note's folder. */
export function nodeSqliteFile(base: string, path: string): SqliteFile {
	const abs = isAbsolute(path) ? path : resolve(join(base, path));
	return {
		path,
		read: () => Promise.resolve(existsSync(abs) ? new Uint8Array(readFileSync(abs)) : null),
		write: (bytes) => {
			const tmp = join(dirname(abs), `.${process.pid}.${Date.now()}.tmp`);
			writeFileSync(tmp, bytes);
			renameSync(tmp, abs);
			return Promise.resolve();
		},
	};
}

/** `history`: the vault's run history for the built-in `history` connection (null outside a vault). */
export function cliDbModules(base: string, history: HistorySnapshots | null = null): DbModules {
	const workers = new SqliteWorkers(threadWorker);
	return {
		sqlJs: loadSqlJs,
		sqliteFile: (path) => nodeSqliteFile(base, path),
		sqliteDriver: (file, options) => createWorkerSqliteDriver(workers, file, options),
		historyFile: () => historySqliteFile(history),
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CLI loads a server driver only when a connection of its engine runs
		pg: () => require("pg") as typeof Pg,
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
		mysql: () => require("mysql2/promise") as typeof MysqlPromise,
		readSecret: (id) => process.env[secretEnvName(id)],
		// An idle worker thread would keep the process alive after the run.
		close: () => workers.close(),
	};
}
