import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseNote, type HttpNoteBlock, type NoteBlock } from "../../../src/blocks";
import { targetsOf } from "../../../src/cli/commands/run";
import { createEngine, isRunnable, type ActiveEnvironment, type Engine } from "../../../src/runner/engine";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import type { BlockResult } from "../../../src/runner/result";
import type { ActionTarget } from "../../../src/ui/action-target";
import { performAction, type ActionEffects } from "../../../src/ui/commands";

/** An engine whose ports prepare but cannot send: `prepare` must never reach the transport. */
function engineWith(env: Partial<ActiveEnvironment> = {}): Engine {
	return createEngine({
		transport: () => {
			throw new Error("prepare sent something");
		},
		history: () => null,
		environment: () => ({ name: "dev", variables: {}, secretValues: [], secretNames: [], unsetSecretNames: [], ...env }),
		defaultTimeoutMs: () => 4321,
	});
}

const fence = (info: string, ...lines: string[]) => ["```http" + (info ? ` ${info}` : ""), ...lines, "```"].join("\n");

function blockOf(note: readonly NoteBlock[], alias: string): HttpNoteBlock {
	const block = note.find((b) => b.alias === alias);
	if (block?.kind !== "http") throw new Error(`no http block ${alias}`);
	return block;
}

function done(body: string): BlockResult {
	return {
		kind: "http",
		state: "done",
		receivedBytes: body.length,
		body: new TextEncoder().encode(body),
		head: { status: 200, statusText: "OK", httpVersion: "1.1", headers: [["Content-Type", "application/json"]], url: "https://example.com/login", redirects: 0 },
	};
}

describe("engine.prepare: the request Run would send, without sending it", () => {
	// Issue 23, point 4: a variables fence's @host made every export fail with "Unresolved reference {{host}}".
	const note = parseNote(
		[
			fence("", "@host = example.com", "@who = file"),
			fence("alias=login", "POST https://{{host}}/login"),
			fence("alias=me", "@page = 2", "GET https://{{host}}/x?who={{who}}&page={{page}}&env={{region}}", "Authorization: Bearer {{login.response.body.$.token}}"),
		].join("\n\n"),
	);

	it("reads file variables (the block's over the fences above, both over the environment), the environment and the alias's last result", () => {
		const engine = engineWith({ variables: { who: "env", region: "eu" } });
		engine.sessions.note("api.md").set("login", done('{"token":"T0K"}'));
		const prepared = engine.prepare("api.md", note, blockOf(note, "me"));
		if (!prepared.ok) throw new Error(prepared.error.message);
		expect(prepared.request).toMatchObject({ method: "GET", url: "https://example.com/x?who=file&page=2&env=eu", headers: [["Authorization", "Bearer T0K"]], body: "", timeoutMs: 4321 });
	});

	it("never runs an alias that has no result: it fails naming the alias to run first", () => {
		const prepared = engineWith({ variables: { region: "eu" } }).prepare("api.md", note, blockOf(note, "me"));
		expect(prepared).toMatchObject({ ok: false, notRun: ["login"], error: { code: "unresolved_reference", message: 'Unresolved reference: block "login" has not run yet' } });
	});

	it("reads the results of its own note only", () => {
		const engine = engineWith({ variables: { region: "eu" } });
		engine.sessions.note("other.md").set("login", done('{"token":"T0K"}'));
		expect(engine.prepare("api.md", note, blockOf(note, "me"))).toMatchObject({ ok: false, notRun: ["login"] });
	});

	it("says a secret is not set, as a run does, and masks a set one in the shown copy", () => {
		const secretNote = parseNote(fence("alias=s", "GET https://example.com/s", "X-Key: {{key}}"));
		const unset = engineWith({ secretNames: ["key"], unsetSecretNames: ["key"] }).prepare("s.md", secretNote, blockOf(secretNote, "s"));
		expect(unset.ok || unset.error.message).toMatch(/^Secret \{\{key\}\} is not set/);
		const set = engineWith({ variables: { key: "s3cr3t" }, secretNames: ["key"], secretValues: ["s3cr3t"] }).prepare("s.md", secretNote, blockOf(secretNote, "s"));
		if (!set.ok) throw new Error(set.error.message);
		expect(set.request.headers).toEqual([["X-Key", "s3cr3t"]]);
		expect(set.request.masked?.headers).toEqual([["X-Key", "•••"]]);
	});

	it("a port that fails fails the preparation with its reason, as it fails a run", () => {
		const engine = createEngine({
			transport: () => {
				throw new Error("unused");
			},
			history: () => null,
			environment: () => {
				throw new Error("secret storage is not available");
			},
			defaultTimeoutMs: () => 1000,
		});
		const plain = parseNote(fence("alias=p", "GET https://example.com/"));
		expect(engine.prepare("p.md", plain, blockOf(plain, "p"))).toMatchObject({ ok: false, error: { code: "setup_failed", message: "Could not run: secret storage is not available" } });
	});
});

describe("engine.isRunnable: which blocks Run runs", () => {
	const MIXED = [
		"# Mixed",
		fence("", "@base = https://example.com"),
		fence("alias=a", "GET {{base}}/a"),
		"```textdiff alias=d\nleft\n```",
		"```db alias=q\nSELECT 1\n```",
		fence("alias=bad timeout=soon", "GET {{base}}/bad"),
		"```mermaid\ngraph TD\n```",
		fence("", "GET {{base}}/b"),
	].join("\n\n");
	const note = parseNote(MIXED);
	const name = (b: NoteBlock) => b.alias ?? `#${b.index}`;

	it("http and db blocks, invalid ones included (they run to fail, saying why); not a variables fence, not a kind without a runner", () => {
		const engine = engineWith();
		expect(note.filter(isRunnable).map(name)).toEqual(["a", "q", "bad", "#5"]);
		expect(note.filter((b) => engine.isRunnable(b)).map(name)).toEqual(["a", "q", "bad", "#5"]);
	});

	it("the CLI's run and the plugin's run all pick the same blocks of a mixed note", () => {
		const picked: string[][] = [];
		const fx = { run: (_path: string, _note: readonly NoteBlock[], targets: readonly NoteBlock[]) => picked.push(targets.map(name)) } as unknown as ActionEffects;
		const target: ActionTarget = { path: "mixed.md", note, line: 0, moveTo: () => undefined };
		expect(performAction("block.run_all", target, fx)).toBe(true);
		expect(picked).toEqual([targetsOf(note, []).map(name)]);
		expect(picked[0]).toEqual(["a", "q", "bad", "#5"]);
	});

	it("block keys act in a block Run runs, and fall through in a variables fence", () => {
		const ran: string[] = [];
		const fx = { run: (_p: string, _n: readonly NoteBlock[], targets: readonly NoteBlock[]) => ran.push(targets.map(name).join()) } as unknown as ActionEffects;
		const at = (line: number): ActionTarget => ({ path: "mixed.md", note, line, moveTo: () => undefined });
		expect(performAction("block.run", at(note[0].fence.startLine + 1), fx)).toBe(false);
		expect(performAction("block.run", at(note[1].fence.startLine + 1), fx)).toBe(true);
		expect(ran).toEqual(["a"]);
	});
});

describe("engine.run: # @property values go into the note's front matter", () => {
	// A real server on 127.0.0.1: /quote answers {"price":…}, /fail answers 500.
	let server: Server;
	let base = "";
	beforeAll(async () => {
		server = createServer((req, res) => {
			const failing = req.url === "/fail";
			res.writeHead(failing ? 500 : 200, { "Content-Type": "application/json" });
			res.end(JSON.stringify({ price: 12.5, open: true, tags: ["a", "b"], name: "Widget" }));
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

	function engineWithNote(front: Record<string, unknown>) {
		const writes: Array<[string, Record<string, unknown>]> = [];
		const transport = createNodeTransport();
		const engine = createEngine({
			transport: () => transport,
			history: () => null,
			environment: () => ({ name: "dev", variables: { base }, secretValues: [], secretNames: [], unsetSecretNames: [] }),
			defaultTimeoutMs: () => 5000,
			caching: false,
			noteProperties: () => ({ read: () => front, write: async (path, values) => void writes.push([path, values]) }),
			close: async () => transport.close(),
		});
		return { engine, writes };
	}

	it("sets each property, types kept, after a run whose assertions pass; a later block of the run reads the new value", async () => {
		const { engine, writes } = engineWithNote({ region: "eu" });
		const note = parseNote(
			[
				fence("alias=quote", "# @property price = {{$.price}}", "# @property open = {{$.open}}", "# @property tags = {{$.tags}}", "# @property label = {{$.name}} ({{this.region}})", "GET {{base}}/quote", "", "?? status == 200"),
				fence("alias=echo", "# @property seen = {{this.price}}", "GET {{base}}/quote?p={{this.price}}"),
			].join("\n\n"),
		);
		const runs = await engine.run("n.md", note, note);
		await engine.close();
		expect(runs.map((r) => r.result.state)).toEqual(["done", "done"]);
		expect(writes).toEqual([
			["n.md", { price: 12.5, open: true, tags: ["a", "b"], label: "Widget (eu)" }],
			["n.md", { seen: 12.5 }],
		]);
		const echo = runs[1].result;
		expect(echo.kind === "http" && echo.request?.url).toBe(`${base}/quote?p=12.5`);
	});

	it.each([
		["a failing assertion", ["GET {{base}}/quote", "", "?? status == 201"]],
		["a failed request", ["GET http://127.0.0.1:1/"]],
		["a value that does not resolve", ["# @property other = {{$.missing}}", "GET {{base}}/quote"]],
	])("writes nothing after %s", async (_why, lines) => {
		const { engine, writes } = engineWithNote({});
		const note = parseNote(fence("alias=q", "# @property price = {{$.price}}", ...lines));
		const [run] = await engine.run("n.md", note, note);
		await engine.close();
		expect(writes).toEqual([]);
		if (_why === "a value that does not resolve") expect(run.result.properties).toEqual({ ok: false, message: "@property other: $.missing matches nothing in the response body" });
	});
});
