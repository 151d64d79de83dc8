import { httpFields, type HttpResult } from "../../../src/runner/http/http-run";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNote } from "../../../src/blocks";
import { nodeStorage } from "../../../src/cli/node-storage";
import { cacheKey } from "../../../src/runner/cache-key";
import type { ExecutorDeps } from "../../../src/runner/executor";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import { HistoryStore } from "../../../src/runner/history-store";
import { ByteLruCache } from "../../../src/runner/lru-cache";
import type { BlockResult, RunSnapshot } from "../../../src/runner/result";
import { shownRequest, SECRET_MASK } from "../../../src/runner/request";
import { runBlocks, type RunContext } from "../../../src/runner/run-note";
import { startTestServer, type TestServer } from "../../support/servers";

jest.setTimeout(30_000);

let server: TestServer;
let transport: ReturnType<typeof createNodeTransport>;
let dir: string;

beforeAll(async () => {
	server = await startTestServer();
	transport = createNodeTransport();
	dir = mkdtempSync(join(tmpdir(), "rb-run-"));
});
afterAll(async () => {
	transport.close();
	await server.close();
	rmSync(dir, { recursive: true, force: true });
});

function context(patch: Omit<Partial<RunContext>, "deps"> & { deps?: Partial<ExecutorDeps> } = {}): RunContext & { states: Array<[string, string]> } {
	const states: Array<[string, string]> = [];
	const { deps, ...rest } = patch;
	return {
		filePath: "api.md",
		env: { base: server.url },
		results: new Map<string, BlockResult>(),
		deps: { transport, cacheKey, cache: new ByteLruCache<HttpResult>(), ...deps },
		onUpdate: (b, s: RunSnapshot) => states.push([b.alias ?? "?", s.state]),
		states,
		...rest,
	};
}

const chain = parseNote(
	[
		"```http alias=login",
		"GET {{base}}/json",
		"```",
		"```http alias=echo",
		"POST {{base}}/echo?t={{login.response.body.$.token}}",
		"Authorization: Bearer {{login.response.body.$.token}}",
		"X-Status: {{login.response.status}}",
		"",
		"{{login.response.body.$.items[1].name}}",
		"```",
	].join("\n"),
);

describe("running a note", () => {
	it("chains references through real responses, top-down", async () => {
		const ctx = context();
		const runs = await runBlocks(chain, chain, ctx);
		expect(runs.map((r) => [r.block.alias, r.result.state])).toEqual([
			["login", "done"],
			["echo", "done"],
		]);
		const echo = JSON.parse(new TextDecoder().decode(httpFields(runs[1].result).body)) as { url: string; headers: Array<[string, string]>; body: string };
		expect(echo.url).toBe("/echo?t=tok-123");
		expect(echo.headers).toContainEqual(["Authorization", "Bearer tok-123"]);
		expect(echo.headers).toContainEqual(["X-Status", "200"]);
		expect(Buffer.from(echo.body, "base64").toString()).toBe("two");
		const login = ctx.states.filter(([a]) => a === "login").map(([, s]) => s);
		expect(login.filter((s, i) => s !== login[i - 1])).toEqual(["running", "streaming", "done"]);
	});

	it("runs a referenced alias with no result first, once", async () => {
		const ctx = context();
		const runs = await runBlocks(chain, [chain[1]], ctx);
		expect(runs.map((r) => [r.block.alias, r.dependency, r.result.state])).toEqual([
			["login", true, "done"],
			["echo", false, "done"],
		]);
	});

	it("reports a reference cycle without sending anything", async () => {
		const cyclic = parseNote("```http alias=a\nGET {{base}}/json?x={{b.response.status}}\n```\n```http alias=b\nGET {{base}}/json?y={{a.response.status}}\n```");
		const before = server.requests.length;
		const runs = await runBlocks(cyclic, [cyclic[0]], context());
		expect(runs.map((r) => r.result.error?.code)).toContain("dependency_cycle");
		expect(runs.find((r) => r.result.error?.code === "dependency_cycle")?.result.error?.message).toMatch(/Reference cycle: a → b → a|Reference cycle: b → a → b/);
		expect(server.requests.length).toBe(before);
	});

	it("reports a failed dependency once: its dependants are skipped naming the root cause, nothing more is sent", async () => {
		const note = parseNote(
			[
				"```http alias=login",
				"GET http://127.0.0.1:9/login",
				"```",
				"```http alias=me",
				"GET {{base}}/json?t={{login.response.body.$.token}}",
				"```",
				"```http alias=orders",
				"GET {{base}}/json?me={{me.response.status}}",
				"```",
				"```http alias=free",
				"GET {{base}}/json?free=1",
				"```",
			].join("\n"),
		);
		const before = server.requests.length;
		const runs = await runBlocks(note, note, context());
		expect(runs.map((r) => [r.block.alias, r.result.state, r.result.error?.code, r.result.error?.message])).toEqual([
			["login", "failed", "connect_failed", "Failed to connect"],
			["me", "failed", "dependency_failed", "skipped: depends on login, which failed"],
			["orders", "failed", "dependency_failed", "skipped: depends on login, which failed"],
			["free", "done", undefined, undefined],
		]);
		expect(server.requests.length).toBe(before + 1);
	});

	it("serves a second identical GET from the cache with no network; history lists it marked cached", async () => {
		const history = await HistoryStore.open(nodeStorage, join(dir, "cache-history.sqlite"));
		const ctx = context({ deps: { history } });
		const note = parseNote("```http alias=j\nGET {{base}}/json?q=1\n```");
		const before = server.requests.length;
		const first = await runBlocks(note, note, ctx);
		const second = await runBlocks(note, note, ctx);
		expect([first[0].result.state, second[0].result.state]).toEqual(["done", "cached"]);
		expect(server.requests.length).toBe(before + 1);
		// Issue 12: a cached run is listed, marked as such (no bytes sent, no network time).
		expect(history.list("api.md", "j").map((r) => [r.outcome, r.status, r.requestBytes, r.durationMs])).toEqual([
			["cached", 200, 0, 0],
			["done", 200, expect.any(Number) as number, expect.any(Number) as number],
		]);
		expect(new TextDecoder().decode(httpFields(second[0].result).body)).toContain("tok-123");
		await history.close();
	});

	it("never serves POST from the cache, and force re-run refreshes a GET", async () => {
		const ctx = context();
		const post = parseNote("```http alias=p\nPOST {{base}}/echo\n\nx\n```");
		await runBlocks(post, post, ctx);
		const again = await runBlocks(post, post, ctx);
		expect(again[0].result.state).toBe("done");
		const get = parseNote("```http alias=g\nGET {{base}}/json?force=1\n```");
		await runBlocks(get, get, ctx);
		const before = server.requests.length;
		const forced = await runBlocks(get, get, { ...ctx, force: true });
		expect(forced[0].result.state).toBe("done");
		expect(server.requests.length).toBe(before + 1);
		expect((await runBlocks(get, get, ctx))[0].result.state).toBe("cached");
	});

	it("keeps the cache hit when an unreferenced environment variable changes, and misses when a referenced one does", async () => {
		const ctx = context({ env: { base: server.url, unused: "1", q: "a" } });
		const note = parseNote("```http alias=e\nGET {{base}}/json?v={{q}}\n```");
		await runBlocks(note, note, ctx);
		expect((await runBlocks(note, note, { ...ctx, env: { base: server.url, unused: "2", q: "a" } }))[0].result.state).toBe("cached");
		expect((await runBlocks(note, note, { ...ctx, env: { base: server.url, unused: "2", q: "b" } }))[0].result.state).toBe("done");
	});

	it("ends as cancelled with [cancelled] and Request cancelled on timeout, writing history rows for both", async () => {
		const history = await HistoryStore.open(nodeStorage, join(dir, "cancel-history.sqlite"));
		const note = parseNote("```http alias=s\nGET {{base}}/stream?chunks=40&delay=30\n```\n```http alias=t timeout=150\nGET {{base}}/slow-headers?delay=2000\n```");
		const controller = new AbortController();
		const ctx = context({
			deps: { history },
			signalFor: (b) => (b.alias === "s" ? controller.signal : new AbortController().signal),
			onUpdate: (b, s) => {
				if (b.alias === "s" && (httpFields(s).receivedBytes ?? 0) >= 32) controller.abort();
			},
		});
		const runs = await runBlocks(note, note, ctx);
		expect(runs.map((r) => [r.result.state, r.result.error?.message])).toEqual([
			["cancelled", "[cancelled]"],
			["cancelled", "Request cancelled"],
		]);
		expect(httpFields(runs[0].result).body).toBeUndefined();
		expect(history.list("api.md", "s")[0]).toMatchObject({ outcome: "cancelled", errorCode: "cancelled" });
		expect(history.list("api.md", "t")[0]).toMatchObject({ outcome: "cancelled", errorCode: "timeout" });
		await history.close();
	});

	it("fails an unresolved reference naming it, and an invalid resolved header name with Invalid HTTP token", async () => {
		const note = parseNote("```http alias=u\nGET {{base}}/json?x={{nope}}\n```\n```http alias=h\nGET {{base}}/json\n{{hdr}}: v\n```");
		const runs = await runBlocks(note, note, context({ env: { base: server.url, hdr: "Bad Header" } }));
		expect(runs[0].result.error).toMatchObject({ code: "unresolved_reference", message: expect.stringContaining("{{nope}}") as unknown });
		expect(runs[1].result.error).toMatchObject({ code: "invalid_token", message: "Invalid HTTP token" });
	});
});

describe("cache semantics (RFC 9111 where it applies)", () => {
	const run = (ctx: RunContext, text: string) => {
		const note = parseNote(text);
		return runBlocks(note, note, ctx).then((r) => r[0].result);
	};

	it("a successful POST invalidates the cached GET of its URL and of its same-origin Location", async () => {
		const ctx = context();
		const list = "```http alias=list\nGET {{base}}/items\n```";
		const item = "```http alias=item\nGET {{base}}/items/7\n```";
		const other = "```http alias=other\nGET {{base}}/items/8\n```";
		for (const b of [list, item, other]) await run(ctx, b);
		for (const b of [list, item, other]) expect((await run(ctx, b)).state).toBe("cached");
		expect(httpFields((await run(ctx, "```http alias=add\nPOST {{base}}/items\n\n{}\n```"))).head?.status).toBe(201);
		expect((await run(ctx, list)).state).toBe("done");
		expect((await run(ctx, item)).state).toBe("done");
		expect((await run(ctx, other)).state).toBe("cached");
	});

	it("a failed write (4xx) invalidates nothing", async () => {
		const ctx = context();
		const get = "```http alias=g\nGET {{base}}/items/fail\n```";
		await run(ctx, get);
		expect(httpFields((await run(ctx, "```http alias=d\nDELETE {{base}}/items/fail\n```"))).head?.status).toBe(409);
		expect((await run(ctx, get)).state).toBe("cached");
	});

	it("does not store a response with Cache-Control: no-store, nor one a request asked not to store", async () => {
		const ctx = context();
		const noStore = "```http alias=n\nGET {{base}}/no-store\n```";
		const before = server.requests.length;
		expect((await run(ctx, noStore)).state).toBe("done");
		expect((await run(ctx, noStore)).state).toBe("done");
		const asked = "```http alias=a\nGET {{base}}/json?ask=1\nCache-Control: no-store\n```";
		expect((await run(ctx, asked)).state).toBe("done");
		expect((await run(ctx, asked)).state).toBe("done");
		expect(server.requests.length).toBe(before + 4);
	});

	it("a cached run carries the time its response was fetched (the age the panel shows)", async () => {
		let clock = 1_000_000;
		const ctx = context({ deps: { now: () => clock } });
		const get = "```http alias=aged\nGET {{base}}/json?aged=1\n```";
		const first = await run(ctx, get);
		clock += 90_000;
		const second = await run(ctx, get);
		expect(second.state).toBe("cached");
		expect(httpFields(second).cachedAt).toBe(first.startedAt);
		expect((second.startedAt ?? 0) - (httpFields(second).cachedAt ?? 0)).toBe(90_000);
	});
});

describe("# @prompt", () => {
	const NOTE = [
		"```http alias=varsOnly",
		"@user = from-the-note",
		"```",
		"```http alias=verify",
		"# @prompt user",
		"# @prompt otp Your one-time password",
		"POST {{base}}/echo?u={{user}}",
		"X-Otp: {{otp}}",
		"",
		'{"user": "{{user}}", "otp": "{{otp}}"}',
		"```",
	].join("\n");

	it("asks the block's prompts as it starts; the answers win over the note's and the environment's values, a hidden one is masked and none is read as a reference", async () => {
		const asked: Array<{ filePath: string; alias: string | null; prompts: unknown }> = [];
		const note = parseNote(NOTE);
		const ctx = context({
			env: { base: server.url, user: "from-env", ss: "NOT-THIS" },
			ask: ({ filePath, block, prompts }) => {
				asked.push({ filePath, alias: block.alias, prompts });
				return Promise.resolve({ ok: true, values: { user: "ana{{ss}}", otp: "12{{ss}}34" } });
			},
		});
		const [run] = await runBlocks(note, note.filter((b) => b.alias === "verify"), ctx);
		expect(run.result.state).toBe("done");
		expect(asked).toEqual([{ filePath: "api.md", alias: "verify", prompts: [{ name: "user", description: "", secret: false }, { name: "otp", description: "Your one-time password", secret: true }] }]);
		const seen = server.requests[server.requests.length - 1];
		expect(seen.url).toBe("/echo?u=ana{{ss}}");
		expect(seen.headers).toContainEqual(["X-Otp", "12{{ss}}34"]);
		const shown = shownRequest(httpFields(run.result).request!);
		expect(shown.headers).toContainEqual(["X-Otp", SECRET_MASK]);
		expect(shown.body).toBe(`{"user": "ana{{ss}}", "otp": "${SECRET_MASK}"}`);
	});

	it("is cancelled, nothing sent, when the dialog is closed; fails saying so where nothing can ask", async () => {
		const note = parseNote(NOTE);
		const verify = note.filter((b) => b.alias === "verify");
		const before = server.requests.length;
		const [closed] = await runBlocks(note, verify, context({ ask: () => Promise.resolve({ ok: false, cancelled: true }) }));
		expect(closed.result).toEqual({ state: "cancelled", error: { code: "cancelled", message: "[cancelled]", detail: "the prompt was closed" } });
		const [nobody] = await runBlocks(note, verify, context());
		expect(nobody.result).toEqual({ state: "failed", error: { code: "prompt_not_answered", message: "{{user}} is asked by # @prompt, and nothing here can ask" } });
		expect(server.requests.length).toBe(before);
	});
});
