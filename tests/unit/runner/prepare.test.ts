import { parseNote, type Entropy } from "../../../src/blocks";
import { readResult } from "../../../src/runner/block-runners";
import { selectJson } from "../../../src/runner/select-json";
import { absoluteUrl, prepareRequest, referencedAliases, type PrepareContext } from "../../../src/runner/prepare";
import { shownRequest } from "../../../src/runner/request";
import type { BlockResult } from "../../../src/runner/result";

const entropy: Entropy = { now: () => new Date(0), random: () => 0, uuid: () => "u-u-i-d" };

function done(body: string, headers: Array<[string, string]> = [], status = 200): BlockResult {
	return {
		kind: "http",
		state: "done",
		receivedBytes: body.length,
		body: new TextEncoder().encode(body),
		head: { status, statusText: "OK", httpVersion: "1.1", headers, url: "http://h/", redirects: 0 },
		request: { method: "POST", url: "http://h/login", headers: [["Content-Type", "application/json"]], body: '{"user":"demo"}', followRedirects: true, timeoutMs: 1 },
	};
}

const login = done('{"token":"T0K","items":[{"id":7},{"id":8}],"n":3,"nested":{"a":[1]}}', [["Set-Cookie", "a=1"], ["set-cookie", "b=2"], ["X-Id", "42"]]);

describe("reading alias results", () => {
	it.each([
		["$.token", "T0K"],
		["$.n", "3"],
		["$.items[0].id", "7"],
		["$.items[*].id", "[7,8]"],
		["$.nested", '{"a":[1]}'],
		["$.items[?(@.id > 7)].id", "8"],
	])("JSONPath %s → %s", (path, value) => {
		expect(readResult(login, { alias: "login", part: "response", section: "body", selector: path })).toEqual({ ok: true, value });
	});

	it("reports a JSONPath that matches nothing, or a body that is not JSON", () => {
		expect(selectJson('{"a":1}', "$.b", "x")).toMatchObject({ ok: false, message: "$.b matches nothing in x" });
		expect(selectJson("<xml/>", "$.a", "x")).toMatchObject({ ok: false, message: "x is not JSON, so $.a cannot be read" });
	});

	it("never evaluates script from the response or the path", () => {
		const evil = done('{"a":"constructor","b":{"toString":"x"}}');
		const r = readResult(evil, { alias: "e", part: "response", section: "body", selector: "$[?(@.constructor.constructor('return process')().exit())]" });
		expect(r.ok).toBe(false);
	});

	it("reads headers case-insensitively, joining repeats, plus status, whole body and request parts", () => {
		const read = (part: "request" | "response", section: "body" | "headers" | "status", selector: string) =>
			readResult(login, { alias: "login", part, section, selector });
		expect(read("response", "headers", "x-id")).toEqual({ ok: true, value: "42" });
		expect(read("response", "headers", "SET-COOKIE")).toEqual({ ok: true, value: "a=1, b=2" });
		expect(read("response", "headers", "Missing")).toMatchObject({ ok: false });
		expect(read("response", "status", "")).toEqual({ ok: true, value: "200" });
		expect(read("response", "body", "*")).toMatchObject({ ok: true, value: expect.stringContaining("T0K") as unknown });
		expect(read("request", "body", "$.user")).toEqual({ ok: true, value: "demo" });
		expect(read("request", "headers", "content-type")).toEqual({ ok: true, value: "application/json" });
	});

	it("has no response for a failed run", () => {
		const failed: BlockResult = { kind: "http", state: "failed", receivedBytes: 0, error: { code: "connect_failed", message: "Failed to connect" } };
		expect(readResult(failed, { alias: "x", part: "response", section: "status", selector: "" })).toMatchObject({
			ok: false,
			message: expect.stringContaining("Failed to connect") as unknown,
		});
	});
});

describe("prepareRequest", () => {
	const note = parseNote(
		[
			"```http alias=login",
			"POST {{base_url}}/login",
			"",
			"{}",
			"```",
			"```http alias=me timeout=900",
			"GET {{base_url}}/me?id={{login.response.body.$.items[1].id}}&r={{uuid}}",
			"Authorization: Bearer {{login.response.body.$.token}}",
			"{{hdr}}: v",
			"# @no-redirect",
			"```",
			"```http",
			"GET /relative",
			"```",
		].join("\n"),
	);
	const ctx = (results: Record<string, BlockResult>, env: Record<string, string> = { base_url: "http://127.0.0.1:9", hdr: "X-H", other: "o" }): PrepareContext => ({
		env,
		aliases: new Set(["login", "me"]),
		result: (a) => results[a],
		read: readResult,
		entropy,
		defaultTimeoutMs: 1234,
	});

	it("resolves URL, headers and body from results, environment and built-ins", () => {
		const p = prepareRequest(note[1], ctx({ login }));
		expect(p).toEqual({
			ok: true,
			request: {
				method: "GET",
				url: "http://127.0.0.1:9/me?id=8&r=u-u-i-d",
				headers: [
					["Authorization", "Bearer T0K"],
					["X-H", "v"],
				],
				body: "",
				followRedirects: false,
				timeoutMs: 900,
			},
			envSnapshot: { base_url: "http://127.0.0.1:9", hdr: "X-H" },
			aliasesUsed: new Set(["login"]),
		});
	});

	it("uses the default timeout without a timeout token", () => {
		const p = prepareRequest(note[0], ctx({}));
		expect(p.ok && p.request.timeoutMs).toBe(1234);
	});

	it("names the alias that has not run", () => {
		const p = prepareRequest(note[1], ctx({}));
		expect(p.ok).toBe(false);
		if (p.ok) return;
		expect(p.error.code).toBe("unresolved_reference");
		expect(p.error.message).toContain('block "login" has not run yet');
		expect(p.notRun).toEqual(["login"]);
	});

	it("fails with Invalid HTTP token when a header name resolves to a non-token", () => {
		const p = prepareRequest(note[1], ctx({ login }, { base_url: "http://h", hdr: "Bad Name" }));
		expect(p).toMatchObject({ ok: false, error: { code: "invalid_token", message: "Invalid HTTP token" } });
	});

	it("names a missing environment variable", () => {
		const p = prepareRequest(note[0], ctx({}, {}));
		expect(p).toMatchObject({ ok: false, error: { message: expect.stringContaining("{{base_url}}") as unknown } });
	});

	it("refuses a path without a host", () => {
		expect(prepareRequest(note[2], ctx({}))).toMatchObject({ ok: false, error: { code: "invalid_url" } });
	});

	it("completes a path from a host variable whose value holds references (httpyac's @host = {{oauthHost}})", () => {
		const p = prepareRequest(note[2], { ...ctx({}, { oauthHost: "http://127.0.0.1:9/" }), fileVariables: { host: "{{oauthHost}}" } });
		expect(p.ok && p.request.url).toBe("http://127.0.0.1:9/relative");
	});

	it("lists referenced aliases for dependency ordering", () => {
		expect(referencedAliases(note[1], new Set(["login", "me"]))).toEqual(["login"]);
		expect(referencedAliases(note[0], new Set(["login"]))).toEqual([]);
	});
});

describe("absoluteUrl", () => {
	it.each([
		["http://a.test/x y?q=a b#frag", "http://a.test/x%20y?q=a%20b"],
		["localhost:8080/x", "http://localhost:8080/x"],
		["example.com", "http://example.com/"],
		["https://ü.test/ä", "https://xn--tda.test/%C3%A4"],
	])("%s → %s", (written, url) => {
		expect(absoluteUrl(written)).toEqual({ ok: true, url });
	});

	it.each([["/x"], ["ftp://a/b"], ["http://"]])("refuses %s", (written) => {
		expect(absoluteUrl(written).ok).toBe(false);
	});
});

describe("secrets reached through a variable's value (issue 12: values hold references)", () => {
	it("are sent for real and shown masked, wherever the nesting put them", () => {
		const [block] = parseNote("```http\nGET {{base}}/x?k={{key}}\nAuthorization: {{auth}}\n```");
		const ctx: PrepareContext = {
			env: { base: "http://h", auth: "Bearer {{token}}", key: "{{token}}-2", token: "s'3 cret" },
			secretNames: new Set(["token"]),
			aliases: new Set(),
			result: () => undefined, read: readResult,
			entropy,
		};
		const prepared = prepareRequest(block, ctx);
		if (!prepared.ok) throw new Error(prepared.error.message);
		expect(prepared.request.headers).toEqual([["Authorization", "Bearer s'3 cret"]]);
		expect(prepared.request.url).toBe("http://h/x?k=s%273%20cret-2");
		const shown = shownRequest(prepared.request);
		expect(shown.headers).toEqual([["Authorization", "Bearer •••"]]);
		expect(shown.url).toBe("http://h/x?k=•••-2");
	});
});
