/**
 * The engine with db blocks on real sql.js, for specs of the plugin's db views and actions:
 * SQLite files are images in memory (no vault, no worker), http transport unused.
 */
import { DbDrivers } from "../../src/runner/db/connect";
import { createEngine, type Engine } from "../../src/runner/engine";
import type { Transport } from "../../src/runner/transport";
import type { RunSnapshot } from "../../src/runner/result";
import type { NoteSession } from "../../src/runner/session";
import type { Connection } from "../../src/settings/connections";
import { sqlJs } from "./sqlite-image";

export { sqlJs, sqliteImage } from "./sqlite-image";

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
