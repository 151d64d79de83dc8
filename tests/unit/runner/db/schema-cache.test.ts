import type { DbDrivers } from "../../../../src/runner/db/connect";
import type { DbDeps } from "../../../../src/runner/db/db-result";
import type { DbDriver, SchemaOutcome, SchemaTable } from "../../../../src/runner/db/driver";
import { SchemaCache, type SchemaState } from "../../../../src/runner/db/schema-cache";
import type { Connection } from "../../../../src/settings/connections";

const table = (name: string): SchemaTable => ({ name, schema: "", kind: "table", columns: [] });

/** Drivers whose schema reads wait until the test answers them, in order. */
function drivers() {
	const pending: Array<(out: SchemaOutcome) => void> = [];
	const reads: string[] = [];
	const driver = (name: string): DbDriver =>
		({
			dialect: "sqlite",
			schema: () => {
				reads.push(name);
				return new Promise<SchemaOutcome>((resolve) => pending.push(resolve));
			},
		}) as unknown as DbDriver;
	const fake = { get: (name: string) => ({ ok: true, driver: driver(name) }) } as unknown as DbDrivers;
	const answer = (out: SchemaOutcome) => (pending.shift() as (out: SchemaOutcome) => void)(out);
	return { fake, reads, answer, done: (...names: string[]) => answer({ kind: "done", tables: names.map(table), timing: { total: 1 } }) };
}

const shop: Connection = { type: "sqlite", path: "shop.sqlite", readonly: true };

describe("SchemaCache", () => {
	it("reads a schema once and keeps it", async () => {
		const d = drivers();
		const cache = new SchemaCache(() => ({ connections: { shop }, drivers: d.fake }));
		const first = cache.get("shop");
		expect(cache.peek("shop")).toEqual({ kind: "loading" });
		d.done("books");
		expect(await first).toEqual({ kind: "done", tables: [table("books")] });
		expect(await cache.get("shop")).toEqual({ kind: "done", tables: [table("books")] });
		expect(cache.peek("shop")).toEqual({ kind: "done", tables: [table("books")] });
		expect(d.reads).toEqual(["shop"]);
	});

	it("reads again when the connection's setting changes, and forgets the old schema", async () => {
		const d = drivers();
		let deps: DbDeps = { connections: { shop }, drivers: d.fake };
		const cache = new SchemaCache(() => deps);
		const first = cache.get("shop");
		d.done("books");
		await first;
		deps = { ...deps, connections: { shop: { ...shop, path: "other.sqlite" } } };
		expect(cache.peek("shop")).toBeUndefined();
		const second = cache.get("shop");
		d.done("authors");
		expect(await second).toEqual({ kind: "done", tables: [table("authors")] });
	});

	it("keeps a failure as a state until refreshed", async () => {
		const d = drivers();
		const cache = new SchemaCache(() => ({ connections: { shop }, drivers: d.fake }));
		const first = cache.get("shop");
		d.answer({ kind: "failed", code: "connect_failed", message: "Could not connect", detail: "ENOENT", timing: { total: 1 } });
		expect(await first).toEqual({ kind: "failed", code: "connect_failed", message: "Could not connect", detail: "ENOENT" });
		await cache.get("shop");
		expect(d.reads).toEqual(["shop"]);
		const again = cache.refresh("shop");
		d.done("books");
		expect(await again).toEqual({ kind: "done", tables: [table("books")] });
	});

	it("tells listeners of each finished read, but not of one a later read replaced", async () => {
		const d = drivers();
		const cache = new SchemaCache(() => ({ connections: { shop }, drivers: d.fake }));
		const heard: Array<[string, SchemaState]> = [];
		const stop = cache.onChange((name, state) => heard.push([name, state]));
		const stale = cache.get("shop");
		const fresh = cache.refresh("shop");
		d.done("old");
		d.done("new");
		await Promise.all([stale, fresh]);
		expect(heard).toEqual([["shop", { kind: "done", tables: [table("new")] }]]);
		expect(cache.peek("shop")).toEqual({ kind: "done", tables: [table("new")] });
		stop();
		const later = cache.refresh("shop");
		d.done("newer");
		await later;
		expect(heard).toHaveLength(1);
	});

	it("keeps a driver that throws as a schema failure", async () => {
		const throwing = { get: () => ({ ok: true, driver: { schema: () => Promise.reject(new Error("boom")) } }) } as unknown as DbDrivers;
		const cache = new SchemaCache(() => ({ connections: { shop }, drivers: throwing }));
		expect(await cache.get("shop")).toEqual({ kind: "failed", code: "schema_failed", message: "Could not read the schema", detail: "boom" });
	});

	it("says which connections exist for an unknown name, and when databases are not available", async () => {
		const d = drivers();
		const cache = new SchemaCache(() => ({ connections: { shop }, drivers: d.fake }));
		const unknown = await cache.get("nope");
		expect(unknown).toMatchObject({ kind: "failed", code: "unknown_connection" });
		expect(unknown.kind === "failed" && unknown.message).toContain("shop");
		expect(cache.connections()).toEqual({ shop });
		const none = new SchemaCache(() => undefined);
		expect(await none.refresh("shop")).toEqual({ kind: "failed", code: "driver_unavailable", message: "Database blocks are not available here" });
		expect(none.connections()).toEqual({});
	});
});
