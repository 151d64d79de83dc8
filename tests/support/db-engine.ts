/**
 * The engine with db blocks on real sql.js, for specs of the plugin's db views and actions:
 * SQLite files are images in memory (no vault, no worker), http transport unused.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import initSqlJs, { type SqlJsStatic } from "sql.js";
import { DbDrivers } from "../../src/runner/db/connect";
import { createEngine, type Engine } from "../../src/runner/engine";
import type { Transport } from "../../src/runner/transport";
import type { RunSnapshot } from "../../src/runner/result";
import type { NoteSession } from "../../src/runner/session";
import type { Connection } from "../../src/settings/connections";

const WASM = join(__dirname, "..", "..", "node_modules", "sql.js", "dist", "sql-wasm.wasm");
/** sql.js from its WebAssembly bytes: in jsdom, sql.js takes itself for a page and would fetch them. */
export const sqlJs = (): Promise<SqlJsStatic> => initSqlJs({ wasmBinary: new Uint8Array(readFileSync(WASM)).buffer });

/** A SQLite database file's bytes after `sql`. */
export async function sqliteImage(sql: string): Promise<Uint8Array> {
	const db = new (await sqlJs()).Database();
	db.run(sql);
	const bytes = db.export();
	db.close();
	return bytes;
}

const noTransport: Transport = { streams: false, send: () => Promise.reject(new Error("db specs send no http")) } as unknown as Transport;

/** An engine whose db connections read these SQLite images by path. */
export function dbEngine(connections: Record<string, Connection>, images: Record<string, Uint8Array>): { engine: Engine; drivers: DbDrivers; close: () => Promise<void> } {
	const drivers = new DbDrivers({
		sqlJs,
		sqliteFile: (path) => ({ path, read: () => Promise.resolve(images[path] ?? null), write: (bytes) => Promise.resolve(void (images[path] = bytes)) }),
		readSecret: () => undefined,
	});
	const engine = createEngine({
		transport: () => noTransport,
		history: () => null,
		environment: () => ({ name: "", variables: {}, secretValues: [], secretNames: [], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 10_000,
		kinds: () => ({ db: { connections, drivers } }),
	});
	return { engine, drivers, close: async () => (await engine.close(), await drivers.closeAll()) };
}

/** Resolves with the block's next finished snapshot (done, cached, cancelled or failed) after now. */
export function nextFinished(session: NoteSession, key: string): Promise<RunSnapshot> {
	return new Promise((resolve) => {
		let first = true;
		const stop = session.subscribe(key, (s) => {
			if (first) return void (first = false);
			if (s.state === "done" || s.state === "cached" || s.state === "cancelled" || s.state === "failed") {
				queueMicrotask(stop);
				resolve(s);
			}
		});
	});
}
