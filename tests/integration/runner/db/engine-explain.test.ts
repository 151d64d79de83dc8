import initSqlJs from "sql.js";
import { parseNote } from "../../../../src/blocks";
import { DbDrivers } from "../../../../src/runner/db/connect";
import { createEngine } from "../../../../src/runner/engine";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";

/**
 * EXPLAIN through the engine, as Mod+Shift+E runs it: the panel shows the plan, and later
 * references to the block still read the rows of its last query (a plan is not its rows).
 */
it("an EXPLAIN run leaves the block's rows for references", async () => {
	const SQL = await initSqlJs();
	const seed = new SQL.Database();
	seed.run("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO books VALUES (1, 'Dune'), (2, 'Emma');");
	const bytes = seed.export();
	seed.close();
	const drivers = new DbDrivers({
		sqlJs: () => initSqlJs(),
		sqliteFile: (path) => ({ path, read: () => Promise.resolve(bytes), write: () => Promise.resolve() }),
		readSecret: () => undefined,
	});
	const transport = createNodeTransport();
	const engine = createEngine({
		transport: () => transport,
		history: () => null,
		environment: () => ({ name: "", variables: {}, secretValues: [], secretNames: [], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 5000,
		kinds: () => ({ db: { connections: { shop: { type: "sqlite", path: "shop.sqlite", readonly: true } }, drivers } }),
	});
	const note = parseNote("```db connection=shop alias=list\nSELECT id, title FROM books ORDER BY id\n```\n");
	const [query] = await engine.run("n.md", note, note);
	expect([query.result.state, query.result.error?.message, query.result.error?.detail]).toEqual(["done", undefined, undefined]);
	const [plan] = await engine.run("n.md", note, note, { kindOptions: { db: { explain: { analyze: false } } } });
	expect(plan.result.state).toBe("done");
	expect(plan.result.kind === "db" && plan.result.db?.plan?.length).toBeGreaterThan(0);
	const kept = engine.sessions.note("n.md").get("list");
	expect(kept?.kind === "db" && kept.db?.rows).toEqual([
		{ id: 1, title: "Dune" },
		{ id: 2, title: "Emma" },
	]);
	await engine.close();
	transport.close();
	await drivers.closeAll();
});
