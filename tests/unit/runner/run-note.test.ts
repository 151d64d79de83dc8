import { parseNote } from "../../../src/blocks";
import type { PreparedRequest } from "../../../src/runner/request";
import type { BlockResult } from "../../../src/runner/result";
import { runBlocks, type RunContext } from "../../../src/runner/run-note";
import { failed, type Transport, type TransportOutcome } from "../../../src/runner/transport";

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
			["b", "failed", true, "Reference cycle: a → b → a"],
			["a", "failed", false, "skipped: depends on b, which failed"],
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
