/**
 * The plugin's database port (EnginePorts.db): connections from user.toml `[connections.*]`
 * as the settings store holds them, SQLite files of the vault through the vault adapter (run
 * in a worker, written back atomically and only for a writable connection), passwords from
 * Obsidian's secret storage (the same as secret variables), run history as the built-in read-only
 * `history` connection, and `pg` / `mysql2` — bundled
 * into main.js but `require`d only inside functions that run when `Platform.isDesktopApp`,
 * exactly as the node transport is. On mobile a server connection says it needs the desktop app.
 */
import type * as MysqlPromise from "mysql2/promise";
import { normalizePath, Platform, type App } from "obsidian";
import type * as Pg from "pg";
import { writeAtomically } from "../../runner/binary-storage";
import { DbDrivers, type DbModules } from "../../runner/db/connect";
import type { DbDeps } from "../../runner/db/db-result";
import { historySqliteFile, type HistorySnapshots } from "../../runner/db/history-connection";
import type { SqliteFile } from "../../runner/db/sqlite";
import { createWorkerSqliteDriver, SqliteWorkers, type WorkerFactory } from "../../runner/db/worker-driver";
import { loadSqlJs } from "../../runner/sqljs";
import { withBuiltInConnections } from "../../settings/connections";
import type { SettingsStore } from "../settings-store";
import { vaultBinaryStorage } from "../vault-binary-storage";
import { blobWorker } from "./blob-worker";

/** A vault-relative SQLite file through the vault adapter; written to a temp file, then renamed over. */
export function vaultSqliteFile(app: App, path: string): SqliteFile {
	const storage = vaultBinaryStorage(app.vault.adapter);
	const p = normalizePath(path);
	return {
		path: p,
		read: () => storage.read(p),
		write: (bytes) => writeAtomically(storage, p, bytes),
	};
}

/** The server drivers, on desktop only: required on first use of a connection of their engine. */
function desktopDrivers(): Pick<DbModules, "pg" | "mysql"> {
	if (!Platform.isDesktopApp) return {};
	return {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- bundled, and loaded only here, on desktop, when a postgres connection first runs (never import(): Obsidian cannot load it)
		pg: () => require("pg") as typeof Pg,
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above, for mysql connections
		mysql: () => require("mysql2/promise") as typeof MysqlPromise,
	};
}

export class PluginDb {
	private drivers: DbDrivers | null = null;
	private readonly workers: SqliteWorkers;

	constructor(
		private readonly app: App,
		private readonly settings: SettingsStore,
		/** Run history, for the built-in `history` connection. */
		private readonly history: HistorySnapshots,
		workerFactory: WorkerFactory = blobWorker,
	) {
		this.workers = new SqliteWorkers(workerFactory);
	}

	/** Connections and drivers for a run; drivers (and pools) are made on first use and kept per connection. */
	deps(): DbDeps {
		return { connections: withBuiltInConnections(this.settings.settings.connections), drivers: (this.drivers ??= new DbDrivers(this.modules())) };
	}

	private modules(): DbModules {
		const secrets = (this.app as Partial<Pick<App, "secretStorage">>).secretStorage;
		return {
			sqlJs: loadSqlJs,
			sqliteFile: (path) => vaultSqliteFile(this.app, path),
			sqliteDriver: (file, options) => createWorkerSqliteDriver(this.workers, file, options),
			historyFile: () => historySqliteFile(this.history),
			readSecret: (id) => secrets?.getSecret(id) ?? undefined,
			...desktopDrivers(),
		};
	}

	/** Ends pools and workers (plugin unload). */
	async close(): Promise<void> {
		this.workers.close();
		await this.drivers?.closeAll();
	}
}
