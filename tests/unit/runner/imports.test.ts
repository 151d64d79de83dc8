import { parseNote } from "../../../src/blocks";
import { blocksOfFile } from "../../../src/blocks/imports";
import type { NoteLinks } from "../../../src/runner/cross-note";
import { createEngine, type Engine } from "../../../src/runner/engine";
import { foreignAliases } from "../../../src/runner/imports";
import type { Transport } from "../../../src/runner/transport";
import { answering } from "../../support/answering-transport";

/** A vault in memory: files by vault path, `.http` files read as the import command reads them. */
function vault(files: Record<string, string>): NoteLinks {
	return {
		resolve: (link) => Object.keys(files).find((p) => p === `${link}.md`) ?? null,
		blocks: (path) => Promise.resolve(path in files ? blocksOfFile(path, files[path]) : null),
	};
}

const fence = (...lines: string[]) => ["```http", ...lines, "```"].join("\n");

function engineOver(transport: Transport, links: NoteLinks): Engine {
	return createEngine({
		transport: () => transport,
		history: () => null,
		environment: () => ({ name: "dev", variables: { base: "http://api.test" }, secretValues: [], secretNames: [], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 1000,
		notes: () => links,
	});
}

const AUTH_HTTP = ["@user = ada", "", "###", "# @name login", "POST {{base}}/login?user={{user}}"].join("\n");
const ORDERS = fence("# @import ./Auth.http", "# @name orders", "GET {{base}}/orders", "Authorization: Bearer {{login.response.body.$.token}}");

async function runAll(engine: Engine, path: string, text: string) {
	const note = parseNote(text);
	const runs = await engine.run(path, note, note.filter((b) => engine.isRunnable(b)));
	return runs.map((r) => [r.block.alias, r.result.state, r.result.error?.message ?? null]);
}

const sentHeader = (engine: Engine, path: string, alias: string, name: string) => {
	const r = engine.sessions.note(path).get(alias);
	return r?.kind === "http" ? r.request?.headers.find(([n]) => n === name)?.[1] : undefined;
};

describe("# @import: which aliases a block may take from imports", () => {
	it("lists the plain aliases its references name that the note does not define, each once", () => {
		const [block] = parseNote(fence("GET {{login.response.body.$.a}}/{{login.response.status}}/{{local.response.status}}/{{[[Auth]]#x.response.status}}/{{base}}"));
		expect(foreignAliases(block, new Set(["local"]))).toEqual(["login"]);
	});
});

describe("# @import: a plain reference reads the imported file's block", () => {
	it("runs the imported .http file's block first, once, with that file's variables, and keeps it under the file's path", async () => {
		const transport = answering({ "http://api.test/login": '{"token":"T0K"}', "http://api.test/orders": "[]" });
		const engine = engineOver(transport, vault({ "APIs/Auth.http": AUTH_HTTP }));
		expect(await runAll(engine, "APIs/Orders.md", ORDERS)).toEqual([["orders", "done", null]]);
		expect(await runAll(engine, "APIs/Orders.md", ORDERS.replace("GET", "POST"))).toEqual([["orders", "done", null]]);
		expect(transport.sent).toEqual(["POST http://api.test/login?user=ada", "GET http://api.test/orders", "POST http://api.test/orders"]);
		expect(engine.sessions.note("APIs/Auth.http").get("login")?.state).toBe("done");
		expect(sentHeader(engine, "APIs/Orders.md", "orders", "Authorization")).toBe("Bearer T0K");
	});

	it("imports a note too, and the directive in any block applies to the whole note", async () => {
		const transport = answering({ "http://api.test/login": '{"token":"N0TE"}', "http://api.test/orders": "[]" });
		const engine = engineOver(transport, vault({ "Auth.md": fence("# @name login", "POST {{base}}/login") }));
		const text = [fence("# @import ./Auth", "GET {{base}}/health"), fence("# @name orders", "GET {{base}}/orders", "Authorization: Bearer {{login.response.body.$.token}}")].join("\n");
		const note = parseNote(text);
		await engine.run("Orders.md", note, [note[1]]);
		expect(sentHeader(engine, "Orders.md", "orders", "Authorization")).toBe("Bearer N0TE");
	});

	it("lets the note's own alias win over an imported one of the same name", async () => {
		const transport = answering({ "http://api.test/login": '{"token":"IMPORTED"}', "http://api.test/local": '{"token":"LOCAL"}', "http://api.test/orders": "[]" });
		const engine = engineOver(transport, vault({ "Auth.http": AUTH_HTTP }));
		const text = [fence("# @import ./Auth.http", "# @name login", "GET {{base}}/local"), ORDERS.replace("# @import ./Auth.http\n", "")].join("\n");
		await runAll(engine, "Orders.md", text);
		expect(transport.sent).toEqual(["GET http://api.test/local", "GET http://api.test/orders"]);
		expect(sentHeader(engine, "Orders.md", "orders", "Authorization")).toBe("Bearer LOCAL");
	});

	it("fails an alias two imported files define, naming both, and sends nothing", async () => {
		const transport = answering({});
		const engine = engineOver(transport, vault({ "A.http": AUTH_HTTP, "B.md": fence("# @name login", "GET {{base}}/b") }));
		const runs = await runAll(engine, "Orders.md", ORDERS.replace("# @import ./Auth.http", "# @import ./A.http\n# @import ./B"));
		expect(runs).toEqual([["orders", "failed", 'Alias "login" is defined by two imported files, A.http (line 2, column 3: @import ./A.http) and B.md (line 3, column 3: @import ./B): rename one of the two blocks']]);
		expect(transport.sent).toEqual([]);
	});

	it("fails a block that looks in a missing file, at the directive's line and column, and sends nothing", async () => {
		const transport = answering({});
		const engine = engineOver(transport, vault({}));
		expect(await runAll(engine, "APIs/Orders.md", ORDERS)).toEqual([["orders", "failed", "Cannot import (line 2, column 3: @import ./Auth.http): no file APIs/Auth.http in the vault"]]);
		expect(transport.sent).toEqual([]);
	});

	it("leaves a block that needs nothing imported alone when an import is missing", async () => {
		const transport = answering({ "http://api.test/health": "{}" });
		const engine = engineOver(transport, vault({}));
		expect(await runAll(engine, "Orders.md", fence("# @import ./Gone.http", "# @name health", "GET {{base}}/health"))).toEqual([["health", "done", null]]);
	});

	it("reports a cycle through an import with its chain", async () => {
		const transport = answering({});
		const engine = engineOver(transport, vault({ "Orders.md": ORDERS, "Auth.http": ["# @import ./Orders.md", "# @name login", "GET {{base}}/login?o={{orders.response.status}}"].join("\n") }));
		const runs = await runAll(engine, "Orders.md", ORDERS);
		expect(runs).toEqual([["orders", "failed", "Reference cycle: Orders#orders → Auth.http#login → Orders#orders"]]);
		expect(transport.sent).toEqual([]);
	});

	it("export reads the imported block's kept result and never runs it", async () => {
		const transport = answering({ "http://api.test/login": '{"token":"T0K"}', "http://api.test/orders": "[]" });
		const engine = engineOver(transport, vault({ "Auth.http": AUTH_HTTP }));
		const note = parseNote(ORDERS);
		const before = engine.prepare("Orders.md", note, note[0]);
		expect(before.ok ? null : before.error.message).toBe('Unresolved reference {{login.response.body.$.token}}: no block above has alias "login"');
		await runAll(engine, "Orders.md", ORDERS);
		const after = engine.prepare("Orders.md", note, note[0]);
		expect(after.ok ? after.request.headers : null).toContainEqual(["Authorization", "Bearer T0K"]);
		expect(transport.sent).toEqual(["POST http://api.test/login?user=ada", "GET http://api.test/orders"]);
	});
});
