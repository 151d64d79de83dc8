import { httpFields } from "../../../src/runner/http/http-run";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { blockKey, parseNote } from "../../../src/blocks";
import { nodeStorage } from "../../../src/cli/node-storage";
import { DeferredHistory } from "../../../src/runner/deferred-history";
import { createEngine, type EnginePorts } from "../../../src/runner/engine";
import { HistoryStore } from "../../../src/runner/history-store";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import type { Transport } from "../../../src/runner/transport";
import { startTestServer, type TestServer } from "../../support/servers";

jest.setTimeout(30_000);

let server: TestServer;
let dir: string;
beforeAll(async () => {
	server = await startTestServer();
	dir = mkdtempSync(join(tmpdir(), "rb-runtime-"));
});
afterAll(async () => {
	await server.close();
	rmSync(dir, { recursive: true, force: true });
});

/**
 * The plugin's ports with the real node transport and history, where creating the
 * transport or reading the environment can fail the way they fail in Obsidian (a missing
 * Node module, a secret store that is not there).
 */
function services(failures: { transport?: Error; environment?: Error }): EnginePorts & { transports: number; close(): Promise<void> } {
	const history = new DeferredHistory(() => HistoryStore.open(nodeStorage, join(dir, "history.sqlite")), () => undefined);
	let node: (Transport & { close(): void }) | null = null;
	const s = {
		transports: 0,
		transport: () => {
			if (failures.transport) throw failures.transport;
			s.transports++;
			return (node ??= createNodeTransport());
		},
		history: () => history,
		environment: () => {
			if (failures.environment) throw failures.environment;
			return { name: "local", variables: { base: server.url }, secretValues: [], secretNames: [], unsetSecretNames: [] };
		},
		defaultTimeoutMs: () => 5000,
		close: async () => {
			node?.close();
			await history.close();
		},
	};
	return s;
}

const NOTE = "```http\n# @name one\nGET {{base}}/json\n```\n\n```http\n# @name two\nGET {{base}}/json?two\n```\n";

describe("engine: a failed preparation is shown on the block and not kept", () => {
	it("ends every target in failed with the reason, then runs on the next try", async () => {
		const failures: { transport?: Error } = { transport: new Error("Cannot find module 'http'") };
		const svc = services(failures);
		const runtime = createEngine(svc);
		const note = parseNote(NOTE);
		const seen = server.requests.length;

		const failed = await runtime.run("api.md", note, note);
		expect(failed.map((r) => r.result.state)).toEqual(["failed", "failed"]);
		for (const b of note) {
			const snap = runtime.sessions.note("api.md").snapshot(blockKey(b));
			expect(snap.state).toBe("failed");
			expect(snap.error).toMatchObject({ code: "setup_failed" });
			expect(snap.error?.message).toContain("Cannot find module 'http'");
		}
		expect(server.requests.length).toBe(seen);

		delete failures.transport;
		const ok = await runtime.run("api.md", note, [note[0]]);
		expect(ok.map((r) => r.result.state)).toEqual(["done"]);
		expect(runtime.sessions.note("api.md").snapshot(blockKey(note[0])).state).toBe("done");
		expect(svc.transports).toBe(1);
		expect((await runtime.listHistory("api.md", note[0])).map((r) => r.status)).toEqual([200]);
		await svc.close();
	});

	it("a settings failure (environment) fails the block with its message too", async () => {
		const svc = services({ environment: new Error("secret storage is not available") });
		const runtime = createEngine(svc);
		const note = parseNote(NOTE);
		const [run] = await runtime.run("env.md", note, [note[1]]);
		expect(run.result.error?.message).toBe("Could not run: secret storage is not available");
		expect(runtime.sessions.note("env.md").snapshot(blockKey(note[1])).state).toBe("failed");
		await svc.close();
	});
});

describe("engine.prepareToRun: what a first run needs, loaded ahead of it", () => {
	it("makes the transport now, and a transport that cannot be made throws nothing (the run says why)", async () => {
		const ok = services({});
		createEngine(ok).prepareToRun("http");
		expect(ok.transports).toBe(1);
		createEngine(ok).prepareToRun("sse");
		expect(ok.transports).toBe(2);
		await ok.close();
		// A preparation queued before the engine closed (the plugin disabled) makes nothing.
		const closed = services({});
		const engine = createEngine(closed);
		await engine.close();
		engine.prepareToRun("http");
		expect(closed.transports).toBe(0);
		const failing = services({ transport: new Error("Cannot find module 'http'") });
		expect(() => createEngine(failing).prepareToRun("http")).not.toThrow();
		expect(() => createEngine(failing).prepareToRun("no-such-kind")).not.toThrow();
		await failing.close();
	});
});

describe("the transport, made for the kinds that send through it", () => {
	it("is not made to prepare or run blocks that do not send through it (db, WebSocket)", async () => {
		const svc = services({});
		const runtime = createEngine(svc);
		runtime.prepareToRun("db");
		runtime.prepareToRun("websocket");
		expect(svc.transports).toBe(0);
		// A db block of a connection the run has no driver for: it ends failed, having sent nothing.
		const note = parseNote("```db connection=nowhere\nSELECT 1\n```\n");
		const [run] = await runtime.run("db.md", note, note);
		expect(run.result.state).toBe("failed");
		expect(svc.transports).toBe(0);
		// The http block of the next run makes it, once for the run.
		const http = parseNote(NOTE);
		expect((await runtime.run("api.md", http, http)).map((r) => r.result.state)).toEqual(["done", "done"]);
		expect(svc.transports).toBe(1);
		await svc.close();
	});
});

describe("engine.prepare: export sends what Run sends", () => {
	it("prepares exactly the request a run put on the wire: file variables, environment, an alias's last result", async () => {
		const svc = services({});
		const runtime = createEngine(svc);
		const note = parseNote(
			["```http", "@path = /echo", "@who = file", "```", "", "```http alias=login", "GET {{base}}/json", "```", "", "```http alias=me", "POST {{base}}{{path}}?who={{who}}", "Authorization: Bearer {{login.response.body.$.token}}", "Content-Type: application/json", "", '{"who": "{{who}}"}', "```"].join("\n"),
		);
		const me = note[2];
		if (me.kind !== "http") throw new Error("not http");
		const runs = await runtime.run("chain.md", note, [me]);
		expect(runs.map((r) => [r.block.alias, r.result.state])).toEqual([["login", "done"], ["me", "done"]]);
		const seen = server.requests[server.requests.length - 1];
		expect([seen.method, seen.url, seen.body.toString()]).toEqual(["POST", "/echo?who=file", '{"who": "file"}']);
		expect(seen.headers).toContainEqual(["Authorization", "Bearer tok-123"]);

		const prepared = runtime.prepare("chain.md", note, me);
		if (!prepared.ok) throw new Error(prepared.error.message);
		expect(prepared.request).toEqual(httpFields(runs[1].result).request);
		await svc.close();
	});
});

describe("engine: {{$dotenv NAME}} reads the .env of the note's folder", () => {
	const note = parseNote("```http alias=call\nGET {{base}}/echo?k={{$dotenv KEY}}\nX-Key: {{$dotenv KEY}}\n```\n");
	const [call] = note;

	it("reads it before a run of a note that uses it, sends its value, masks it where the request is shown, and lends it to export", async () => {
		const reads: string[] = [];
		const files = new Map([["api/.env", "KEY=k{{x}}1\n"]]);
		const engine = createEngine({ ...services({}), dotenv: (path) => (reads.push(path), Promise.resolve(files.get(path.replace(/[^/]*$/, ".env")) ?? null)) });
		const before = engine.prepare("api/n.md", note, call);
		expect(!before.ok && before.error.message).toContain("no .env file was read from the note's folder");
		const [run] = await engine.run("api/n.md", note, note);
		expect(run.result.state).toBe("done");
		expect(server.requests[server.requests.length - 1].headers).toContainEqual(["X-Key", "k{{x}}1"]);
		const request = httpFields(run.result).request;
		expect(request?.masked?.headers).toContainEqual(["X-Key", "•••"]);
		expect(request?.masked?.withReferences.headers).toContainEqual(["X-Key", "{{$dotenv KEY}}"]);
		expect(engine.prepare("api/n.md", note, call)).toMatchObject({ ok: true, request: { headers: [["X-Key", "k{{x}}1"]] } });
		// A note that uses none reads nothing; one whose folder has none is told so, and a key not in it is named.
		await engine.run("api/plain.md", parseNote(NOTE), parseNote(NOTE));
		expect(reads).toEqual(["api/n.md"]);
		const [none] = await engine.run("other/n.md", note, note);
		expect(none.result.error?.message).toContain("no .env file was read from the note's folder");
		files.set("other/.env", "OTHER=1\n");
		await engine.readNoteFiles("other/n.md", note);
		expect(engine.prepare("other/n.md", note, call)).toMatchObject({ ok: false, error: { message: "Unresolved reference {{$dotenv KEY}}: KEY is not in the .env file" } });
		await engine.close();
	});
});
