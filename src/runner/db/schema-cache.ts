/**
 * The schema of each connection, for completion, hover and Mod+K (docs/db.md): introspected
 * once through the connection's driver, kept, and read again only on demand (`refresh`) or when
 * the connection's setting changes. A failure is kept as a value too (the editor shows it, and a
 * keystroke does not hammer a server that refused); `refresh` tries again.
 */
import type { Connection } from "../../settings/connections";
import type { DbDeps } from "./db-result";
import type { SchemaTable } from "./driver";
import { dbFailureText } from "./failures";

export type SchemaState =
	| { kind: "loading" }
	| { kind: "done"; tables: readonly SchemaTable[] }
	| { kind: "failed"; code: string; message: string; detail?: string };

interface Entry {
	/** The connection setting the entry was read for: another setting is another schema. */
	key: string;
	state: SchemaState;
	promise: Promise<SchemaState>;
}

export class SchemaCache {
	private readonly entries = new Map<string, Entry>();
	private readonly listeners = new Set<(name: string, state: SchemaState) => void>();

	/** `deps` is asked each time: connections come and go with user.toml. */
	constructor(private readonly deps: () => DbDeps | undefined) {}

	/** The names of the configured connections, in user.toml order. */
	connections(): Readonly<Record<string, Connection>> {
		return this.deps()?.connections ?? {};
	}

	/** What is known now, without starting anything (undefined: never read, or its setting changed). */
	peek(name: string): SchemaState | undefined {
		const entry = this.entries.get(name);
		const connection = this.deps()?.connections[name];
		return entry && connection && entry.key === keyOf(connection) ? entry.state : undefined;
	}

	/** The schema, read on first use (and after the connection's setting changed), else the kept one. */
	get(name: string): Promise<SchemaState> {
		const deps = this.deps();
		const connection = deps?.connections[name];
		if (!deps || !connection) return Promise.resolve(this.missing(name, deps));
		const entry = this.entries.get(name);
		if (entry && entry.key === keyOf(connection)) return entry.promise;
		return this.read(name, connection, deps);
	}

	/** Reads the schema again (the user changed the database, or the last read failed). */
	refresh(name: string): Promise<SchemaState> {
		const deps = this.deps();
		const connection = deps?.connections[name];
		if (!deps || !connection) return Promise.resolve(this.missing(name, deps));
		return this.read(name, connection, deps);
	}

	/** Called with each finished read; returns the unsubscribe. */
	onChange(listener: (name: string, state: SchemaState) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private missing(name: string, deps: DbDeps | undefined): SchemaState {
		if (!deps) return { kind: "failed", code: "driver_unavailable", message: dbFailureText("driver_unavailable", "blocks") };
		const names = Object.keys(deps.connections);
		return { kind: "failed", code: "unknown_connection", message: dbFailureText("unknown_connection", name, names) };
	}

	private read(name: string, connection: Connection, deps: DbDeps): Promise<SchemaState> {
		const key = keyOf(connection);
		const entry: Entry = { key, state: { kind: "loading" }, promise: Promise.resolve({ kind: "loading" }) };
		entry.promise = introspect(name, connection, deps).then((state) => {
			// A later read (refresh, a changed setting) replaced this one: its answer is not news.
			if (this.entries.get(name) !== entry) return state;
			entry.state = state;
			for (const l of this.listeners) l(name, state);
			return state;
		});
		this.entries.set(name, entry);
		return entry.promise;
	}
}

/** One introspection as a state; never rejects (a driver that throws is our bug, kept as a failure all the same). */
async function introspect(name: string, connection: Connection, deps: DbDeps): Promise<SchemaState> {
	const got = deps.drivers.get(name, connection);
	if (!got.ok) return { kind: "failed", code: got.code, message: got.message, ...(got.detail ? { detail: got.detail } : {}) };
	try {
		const s = await got.driver.schema();
		if (s.kind === "done") return { kind: "done", tables: s.tables };
		return { kind: "failed", code: s.code, message: s.message, ...(s.detail ? { detail: s.detail } : {}) };
	} catch (e) {
		return { kind: "failed", code: "schema_failed", message: dbFailureText("schema_failed"), detail: e instanceof Error ? e.message : String(e) };
	}
}

function keyOf(connection: Connection): string {
	return JSON.stringify(connection);
}
