import { parseNote } from "../../../src/blocks";
import type { PreparedRequest } from "../../../src/runner/request";
import type { BlockResult } from "../../../src/runner/result";
import { runBlocks, type RunContext } from "../../../src/runner/run-note";
import { failed, type Transport, type TransportOutcome } from "../../../src/runner/transport";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import { startConcurrencyServer } from "../../support/concurrency-server";
import { refusedPort, startTestServer } from "../../support/servers";

/** A transport that answers from memory: a JSON body per URL, a refused connection for the rest. */
function answering(bodies: Record<string, string>): Transport & { sent: string[] } {
	const sent: string[] = [];
	return {
		name: "node",
		streams: true,
		sent,
		send(request: PreparedRequest): Promise<TransportOutcome> {
			sent.push(`${request.method} ${request.url}`);
			const body = bodies[request.url];
			if (body === undefined) return Promise.resolve(failed("connect_failed", "ECONNREFUSED", { total: 1 }));
			const head = { status: 200, statusText: "OK", httpVersion: "1.1", headers: [["Content-Type", "application/json"]] as Array<[string, string]>, url: request.url, redirects: 0 };
			return Promise.resolve({ kind: "done", head, body: new TextEncoder().encode(body), timing: { total: 1 }, requestBytes: 0, rawRequestHead: "" });
		},
	};
}

function context(transport: Transport, extra: Partial<RunContext> = {}): RunContext & { store: Map<string, BlockResult> } {
	const store = new Map<string, BlockResult>();
	return { env: {}, results: store, store, filePath: "api.md", deps: { transport, cacheKey: () => "" }, ...extra };
}

const fence = (info: string, ...lines: string[]) => ["```http" + (info ? ` ${info}` : ""), ...lines, "```"].join("\n");
const summary = (runs: Awaited<ReturnType<typeof runBlocks>>) => runs.map((r) => [r.block.alias, r.result.state, r.dependency, r.result.error?.message ?? null]);

describe("runBlocks", () => {
	const note = parseNote(
		[
			fence("", "@base = http://127.0.0.1:1"),
			fence("alias=login", "POST {{base}}/login"),
			fence("alias=me", "GET {{base}}/me?t={{login.response.body.$.token}}"),
			fence("alias=orders", "GET {{base}}/orders?t={{login.response.body.$.token}}"),
		].join("\n"),
	);
	const [variables, login, me, orders] = note;

	it("runs a referenced block first, once, and keeps each aliased result", async () => {
		const transport = answering({ "http://127.0.0.1:1/login": '{"token":"T"}', "http://127.0.0.1:1/me?t=T": "{}", "http://127.0.0.1:1/orders?t=T": "[]" });
		const ctx = context(transport);
		const runs = await runBlocks(note, [me, orders], ctx);
		expect(summary(runs)).toEqual([
			["login", "done", true, null],
			["me", "done", false, null],
			["orders", "done", false, null],
		]);
		expect(transport.sent).toEqual(["POST http://127.0.0.1:1/login", "GET http://127.0.0.1:1/me?t=T", "GET http://127.0.0.1:1/orders?t=T"]);
		expect([...ctx.store.keys()]).toEqual(["login", "me", "orders"]);
	});

	it("uses a result kept from an earlier run instead of running its block again", async () => {
		const transport = answering({ "http://127.0.0.1:1/login": '{"token":"T"}', "http://127.0.0.1:1/me?t=T": "{}" });
		const ctx = context(transport);
		await runBlocks(note, [login], ctx);
		await runBlocks(note, [me], ctx);
		expect(transport.sent).toEqual(["POST http://127.0.0.1:1/login", "GET http://127.0.0.1:1/me?t=T"]);
	});

	it("reports a failed dependency once, on itself, and skips its dependants naming it", async () => {
		const runs = await runBlocks(note, [me, orders], context(answering({})));
		expect(summary(runs)).toEqual([
			["login", "failed", true, "Failed to connect"],
			["me", "failed", false, "skipped: depends on login, which failed"],
			["orders", "failed", false, "skipped: depends on login, which failed"],
		]);
	});

	it("skips a fence of variables only, and sends nothing once the run is cancelled", async () => {
		const transport = answering({ "http://127.0.0.1:1/login": "{}" });
		expect(await runBlocks(note, [variables], context(transport))).toEqual([]);
		const cancelled = new AbortController();
		cancelled.abort();
		const runs = await runBlocks(note, [login], context(transport, { signal: cancelled.signal }));
		expect(summary(runs)).toEqual([["login", "failed", false, "[cancelled]"]]);
		expect(transport.sent).toEqual([]);
	});

	it("fails the block that closes a reference cycle, naming the cycle, and skips the rest of it", async () => {
		const cyclic = parseNote([fence("alias=a", "GET http://127.0.0.1:1/a?b={{b.response.status}}"), fence("alias=b", "GET http://127.0.0.1:1/b?a={{a.response.status}}")].join("\n"));
		const transport = answering({});
		const runs = await runBlocks(cyclic, cyclic, context(transport));
		expect(summary(runs)).toEqual([
			["a", "failed", false, "skipped: depends on b, which failed"],
			["b", "failed", true, "Reference cycle: a → b → a"],
		]);
		expect(transport.sent).toEqual([]);
	});

	it("tells the caller as each block starts and ends", async () => {
		const events: string[] = [];
		const transport = answering({ "http://127.0.0.1:1/login": '{"token":"T"}', "http://127.0.0.1:1/me?t=T": "{}" });
		await runBlocks(note, [me], context(transport, { onBlockStart: (b, why) => events.push(`start ${b.alias} ${why}`), onBlockDone: (b, r) => events.push(`done ${b.alias} ${r.state}`) }));
		expect(events).toEqual(["start login dependency", "done login done", "start me target", "done me done"]);
	});
});

describe("runBlocks in parallel (a real server on 127.0.0.1)", () => {
	const transport = createNodeTransport();
	afterAll(() => transport.close());
	// The block timeout only bounds a run that never gathers (the serial one): nothing waits for it to pass.
	const gets = (base: string, ...aliases: string[]) => aliases.map((a) => fence(`alias=${a} timeout=20000`, `GET ${base}/${a}`));

	it("starts the blocks that nothing connects together, up to `parallel`: the server holds every answer until 4 are in flight", async () => {
		const server = await startConcurrencyServer({ gather: 4 });
		try {
			const blocks = parseNote(gets(server.url, "a", "b", "c", "d").join("\n"));
			const runs = await runBlocks(blocks, blocks, context(transport, { parallel: 4 }));
			expect(summary(runs)).toEqual(["a", "b", "c", "d"].map((a) => [a, "done", false, null]));
			expect(server.maxInFlight()).toBe(4);
		} finally {
			await server.close();
		}
	});

	it("skips only the dependants of a block that fails; the blocks free of it run at once meanwhile", async () => {
		const server = await startConcurrencyServer({ gather: 2 });
		const down = `http://127.0.0.1:${await refusedPort()}`;
		try {
			const blocks = parseNote([fence("alias=login", `GET ${down}/login`), fence("alias=me", `GET ${server.url}/me?t={{login.response.status}}`), ...gets(server.url, "x", "y")].join("\n"));
			const runs = await runBlocks(blocks, blocks, context(transport, { parallel: 4 }));
			expect(summary(runs)).toEqual([
				["login", "failed", false, "Failed to connect"],
				["me", "failed", false, "skipped: depends on login, which failed"],
				["x", "done", false, null],
				["y", "done", false, null],
			]);
			expect(server.arrived).toEqual(expect.arrayContaining(["/x", "/y"]));
			expect(server.arrived).toHaveLength(2);
		} finally {
			await server.close();
		}
	});

	it("returns the runs in the note's order whatever order they finished in", async () => {
		const server = await startTestServer();
		try {
			// The first block's answer is held until the second has finished.
			const blocks = parseNote([fence("alias=slow timeout=20000", `GET ${server.url}/held?id=slow`), fence("alias=fast", `GET ${server.url}/json`)].join("\n"));
			const finished: string[] = [];
			const runs = await runBlocks(blocks, blocks, context(transport, { parallel: 2, onBlockDone: (b) => (finished.push(b.alias ?? "?"), b.alias === "fast" && server.release("slow")) }));
			expect(finished).toEqual(["fast", "slow"]);
			expect(summary(runs)).toEqual([
				["slow", "done", false, null],
				["fast", "done", false, null],
			]);
		} finally {
			await server.close();
		}
	});

	it("tells the caller the blocks of the run before any starts, in the order the runs come back", async () => {
		const planned: string[][] = [];
		const started: string[] = [];
		const transport = answering({ "http://127.0.0.1:1/login": '{"token":"T"}', "http://127.0.0.1:1/me?t=T": "{}" });
		const note = parseNote([fence("", "@base = http://127.0.0.1:1"), fence("alias=login", "POST {{base}}/login"), fence("alias=me", "GET {{base}}/me?t={{login.response.body.$.token}}")].join("\n"));
		await runBlocks(note, [note[2]], context(transport, { parallel: 4, onPlan: (blocks) => planned.push(blocks.map((b) => `${b.alias} ${started.length}`)), onBlockStart: (b) => started.push(b.alias ?? "?") }));
		expect(planned).toEqual([["login 0", "me 0"]]);
		expect(started).toEqual(["login", "me"]);
	});
});
