import { parseNote } from "../../../src/blocks";
import { noteDependencies, type NoteLinks } from "../../../src/runner/cross-note";
import { createEngine, type Engine } from "../../../src/runner/engine";
import type { Transport } from "../../../src/runner/transport";
import { answering } from "../../support/answering-transport";

/** A vault in memory: a link names a note by its name, the way `[[Auth]]` finds Auth.md. */
function vault(notes: Record<string, string>): NoteLinks & { reads: string[] } {
	const reads: string[] = [];
	return {
		reads,
		resolve: (link) => Object.keys(notes).find((p) => p === link || p === `${link}.md` || p.endsWith(`/${link}.md`)) ?? null,
		blocks: (path) => {
			reads.push(path);
			return Promise.resolve(path in notes ? parseNote(notes[path]) : null);
		},
	};
}

const fence = (info: string, ...lines: string[]) => ["```http" + (info ? ` ${info}` : ""), ...lines, "```"].join("\n");

function engineOver(transport: Transport, links: NoteLinks | undefined, variables: Record<string, string> = { base: "http://api.test" }): Engine {
	return createEngine({
		transport: () => transport,
		history: () => null,
		environment: () => ({ name: "dev", variables, secretValues: [], secretNames: [], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 1000,
		notes: () => links,
	});
}

const AUTH = [fence("", "@user = ada"), fence("alias=login", "POST {{base}}/login?user={{user}}")].join("\n\n");
const ORDERS = fence("alias=orders", "GET {{base}}/orders", "Authorization: Bearer {{[[Auth]]#login.response.body.$.token}}");

async function runAll(engine: Engine, path: string, text: string) {
	const note = parseNote(text);
	const runs = await engine.run(path, note, note.filter((b) => engine.isRunnable(b)));
	return runs.map((r) => [r.block.alias, r.result.state, r.result.error?.message ?? null]);
}

describe("cross-note references: what a block depends on", () => {
	it("lists each other note's alias once, in the order written", () => {
		const [block] = parseNote(fence("", "GET {{[[Auth]]#login.response.status}}/{{[[Auth]]#login.response.body.$.a}}", "X: {{[[Ids]]#one.response.status}} {{local.response.status}}"));
		expect(noteDependencies(block)).toEqual([
			{ link: "Auth", alias: "login" },
			{ link: "Ids", alias: "one" },
		]);
	});
});

describe("cross-note references: resolving and running the other note first", () => {
	it("runs the other note's block first, with that note's own file variables, and keeps its result under its path", async () => {
		const transport = answering({ "http://api.test/login": '{"token":"T0K"}', "http://api.test/orders": "[]" });
		const engine = engineOver(transport, vault({ "APIs/Auth.md": AUTH, "Orders.md": ORDERS }));
		expect(await runAll(engine, "Orders.md", ORDERS)).toEqual([["orders", "done", null]]);
		expect(transport.sent).toEqual(["POST http://api.test/login?user=ada", "GET http://api.test/orders"]);
		expect(engine.sessions.note("APIs/Auth.md").get("login")?.state).toBe("done");
		const orders = engine.sessions.note("Orders.md").get("orders");
		expect(orders?.kind === "http" ? orders.request?.headers : undefined).toContainEqual(["Authorization", "Bearer T0K"]);
	});

	it("reads a kept result without running it again", async () => {
		const transport = answering({ "http://api.test/login": '{"token":"T0K"}', "http://api.test/orders": "[]" });
		const engine = engineOver(transport, vault({ "Auth.md": AUTH, "Orders.md": ORDERS }));
		await runAll(engine, "Orders.md", ORDERS);
		await runAll(engine, "Orders.md", ORDERS);
		expect(transport.sent.filter((s) => s.includes("/login"))).toHaveLength(1);
	});

	it("runs a kept failure again (the server may be back)", async () => {
		const bodies: Record<string, string> = { "http://api.test/orders": "[]" };
		const transport = answering(bodies);
		const engine = engineOver(transport, vault({ "Auth.md": AUTH, "Orders.md": ORDERS }));
		expect(await runAll(engine, "Orders.md", ORDERS)).toEqual([["orders", "failed", "skipped: depends on [[Auth]]#login, which failed"]]);
		bodies["http://api.test/login"] = '{"token":"T0K"}';
		expect(await runAll(engine, "Orders.md", ORDERS)).toEqual([["orders", "done", null]]);
	});

	it("runs the other note's block once when two blocks need it", async () => {
		const transport = answering({ "http://api.test/login": '{"token":"T0K"}', "http://api.test/orders": "[]", "http://api.test/me": "{}" });
		const two = [ORDERS, fence("alias=me", "GET {{base}}/me?t={{[[Auth]]#login.response.body.$.token}}")].join("\n\n");
		const engine = engineOver(transport, vault({ "Auth.md": AUTH, "Two.md": two }));
		const note = parseNote(two);
		await Promise.all(note.map((b) => engine.run("Two.md", note, [b])));
		expect(transport.sent.filter((s) => s.includes("/login"))).toHaveLength(1);
	});

	it.each([
		["a note that does not exist", fence("alias=x", "GET {{base}}/x?t={{[[Nowhere]]#login.response.status}}"), 'Unresolved reference [[Nowhere]]#login: no note "Nowhere" in the vault'],
		["an alias the note does not have", fence("alias=x", "GET {{base}}/x?t={{[[Auth]]#logout.response.status}}"), 'Unresolved reference [[Auth]]#logout: Auth.md has no block with alias "logout"'],
	])("fails, before sending, on %s", async (_, text, message) => {
		const transport = answering({});
		const engine = engineOver(transport, vault({ "Auth.md": AUTH, "X.md": text }));
		expect(await runAll(engine, "X.md", text)).toEqual([["x", "failed", message]]);
		expect(transport.sent).toEqual([]);
	});

	it("reports a cycle across notes with its chain, on every block in it, and sends nothing", async () => {
		const a = fence("alias=a1", "GET {{base}}/a?t={{[[B]]#b1.response.status}}");
		const b = [fence("alias=b0", "GET {{base}}/b0?t={{[[A]]#a1.response.status}}"), fence("alias=b1", "GET {{base}}/b1?t={{b0.response.status}}")].join("\n\n");
		const transport = answering({});
		const engine = engineOver(transport, vault({ "A.md": a, "notes/B.md": b }));
		expect(await runAll(engine, "A.md", a)).toEqual([["a1", "failed", "Reference cycle: A#a1 → notes/B#b1 → notes/B#b0 → A#a1"]]);
		expect(engine.sessions.note("notes/B.md").get("b0")?.error?.message).toBe("Reference cycle: A#a1 → notes/B#b1 → notes/B#b0 → A#a1");
		expect(transport.sent).toEqual([]);
	});

	it("a block that names itself through its own note's link is a cycle too", async () => {
		const self = fence("alias=s", "GET {{base}}/s?t={{[[Self]]#s.response.status}}");
		const engine = engineOver(answering({}), vault({ "Self.md": self }));
		expect(await runAll(engine, "Self.md", self)).toEqual([["s", "failed", "Reference cycle: Self#s → Self#s"]]);
	});

	it("without a way to other notes, the reference is unresolved and says so", async () => {
		const engine = engineOver(answering({}), undefined);
		expect(await runAll(engine, "Orders.md", ORDERS)).toEqual([["orders", "failed", "Unresolved reference {{[[Auth]]#login.response.body.$.token}}: references to other notes cannot be read here"]]);
	});

	it("export reads the other note's kept result and never runs it", () => {
		const links = vault({ "Auth.md": AUTH, "Orders.md": ORDERS });
		const engine = engineOver(answering({}), links);
		const [orders] = parseNote(ORDERS);
		const before = engine.prepare("Orders.md", [orders], orders);
		expect(before.ok ? "" : before.error.message).toBe("Unresolved reference [[Auth]]#login: the block has not run yet");
		expect(links.reads).toEqual([]);
	});
});
