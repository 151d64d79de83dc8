/**
 * Secrets are masked by where they were substituted, in every form they take on the wire:
 * history URL, Raw tab head and body, terminal line. The server still receives the real value.
 */
import { httpFields } from "../../../src/runner/http/http-run";
import { readResult } from "../../../src/runner/block-runners";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNote } from "../../../src/blocks";
import { nodeStorage } from "../../../src/cli/node-storage";
import { cacheKey } from "../../../src/runner/cache-key";
import { HistoryStore } from "../../../src/runner/history-store";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import { prepareRequest } from "../../../src/runner/prepare";
import { requestForFile, shownRawHead, shownRequest, SECRET_MASK } from "../../../src/runner/request";
import { toHttpFile } from "../../../src/runner/snippets/generators";
import type { BlockResult } from "../../../src/runner/result";
import { runBlocks } from "../../../src/runner/run-note";
import { startTestServer, type TestServer } from "../../support/servers";

jest.setTimeout(30_000);

let server: TestServer;
let transport: ReturnType<typeof createNodeTransport>;
let dir: string;
beforeAll(async () => {
	server = await startTestServer();
	transport = createNodeTransport();
	dir = mkdtempSync(join(tmpdir(), "rb-mask-"));
});
afterAll(async () => {
	transport.close();
	await server.close();
	rmSync(dir, { recursive: true, force: true });
});

/** Every form a value can take in a URL, a header or a body. */
function forms(secret: string): string[] {
	const viaUrl = new URL(`http://h/${secret}?q=${secret}`);
	const path = viaUrl.pathname.slice(1);
	const query = viaUrl.search.slice(3);
	return [...new Set([secret, encodeURIComponent(secret), encodeURI(secret), path, query, new URLSearchParams({ q: secret }).toString().slice(2)])].filter((f) => f.length > 0);
}

const NOTE = "```http alias=call\nPOST {{base}}/echo/{{token}}?q={{token}}&keep=plain\nAuthorization: Bearer {{token}}\nX-Other: plain\n\n{\"token\": \"{{token}}\", \"id\": \"{{$uuid}}\"}\n```";

describe.each([["it's"], ["two words"], ["a&b=c"], ["100%"], ["clé-ñ/ü"], ["a"]])("a secret %j", (secret) => {
	let result: BlockResult;
	let history: HistoryStore;

	beforeAll(async () => {
		history = await HistoryStore.open(nodeStorage, join(dir, `h-${Math.random().toString(36).slice(2)}.sqlite`));
		const note = parseNote(NOTE);
		const runs = await runBlocks(note, note, {
			filePath: "api.md",
			env: { base: server.url, token: secret },
			results: new Map(),
			deps: { transport, cacheKey, history },
			secrets: { names: new Set(["token"]), unset: new Set() },
		});
		result = runs[0].result;
	});
	afterAll(() => history.close());

	it("reaches the server as written", () => {
		expect(result.state).toBe("done");
		const seen = server.requests[server.requests.length - 1];
		const sent = new URL(`${server.url}/echo/${secret}?q=${secret}&keep=plain`);
		expect(seen.url).toBe(sent.pathname + sent.search);
		expect(seen.headers.find(([n]) => n === "Authorization")?.[1]).toBe(`Bearer ${secret}`);
		expect(JSON.parse(seen.body.toString("utf8"))).toMatchObject({ token: secret });
	});

	it("is masked in the history URL in every encoded form, and nothing else is", () => {
		const [row] = history.list("api.md", "call");
		expect(row.url).toContain(SECRET_MASK);
		expect(row.url).toContain("keep=plain");
		expect(row.url.startsWith(server.url)).toBe(true);
		const rest = row.url.split(SECRET_MASK).join("");
		if (secret.length > 1) for (const f of forms(secret)) expect(rest).not.toContain(f);
	});

	it("is masked in the Raw tab's head and body and in the shown request; the same $uuid shows", () => {
		const request = httpFields(result).request!;
		const head = shownRawHead(httpFields(result).rawRequestHead ?? "", request);
		const shown = shownRequest(request);
		expect(head).toContain(`Authorization: Bearer ${SECRET_MASK}\r\n`);
		expect(head).toContain("X-Other: plain\r\n");
		expect(head.split("\r\n")[0]).toMatch(new RegExp(`^POST /echo/${SECRET_MASK}\\?q=${SECRET_MASK}&keep=plain HTTP/1\\.1$`));
		expect(shown.body).toBe(`{"token": "${SECRET_MASK}", "id": "${(JSON.parse(request.body) as { id: string }).id}"}`);
		if (secret.length > 1) for (const f of forms(secret)) expect(`${head}${shown.body}${shown.url}`).not.toContain(f);
	});
});

describe("a secret whose value holds {{", () => {
	it("is sent as it is, never resolved as a reference", async () => {
		const note = parseNote("```http alias=lit\nGET {{base}}/echo\nAuthorization: Bearer {{token}}\n```");
		const [run] = await runBlocks(note, note, {
			filePath: "api.md",
			env: { base: server.url, token: "p{{ss}}w0rd", ss: "NOT-THIS" },
			results: new Map(),
			deps: { transport, cacheKey },
			secrets: { names: new Set(["token"]), unset: new Set() },
		});
		expect(run.result.state).toBe("done");
		expect(server.requests[server.requests.length - 1].headers.find(([n]) => n === "Authorization")?.[1]).toBe("Bearer p{{ss}}w0rd");
		expect(shownRequest(httpFields(run.result).request!).headers).toEqual([["Authorization", `Bearer ${SECRET_MASK}`]]);
	});
});

describe("a .http file export", () => {
	it("writes each secret as its {{reference}}, never its value", () => {
		const [block] = parseNote("```http alias=f\nPOST https://api.example.test/v1/{{token}}?k={{token}}&x=1\nAuthorization: Bearer {{token}}\nX-Key: {{other}}\n\n{\"t\": \"{{token}}\", \"n\": {{$randomInt 5 6}}}\n```");
		const prepared = prepareRequest(block, { env: { token: "it's s3cr&t", other: "plain" }, aliases: new Set(), result: () => undefined, read: readResult, secretNames: new Set(["token"]) });
		if (!prepared.ok) throw new Error(prepared.error.message);
		const file = toHttpFile([{ request: requestForFile(prepared.request), name: "f" }]);
		expect(file).toContain("POST https://api.example.test/v1/{{token}}?k={{token}}&x=1");
		expect(file).toContain("Authorization: Bearer {{token}}");
		expect(file).toContain("X-Key: plain");
		expect(file).toContain('{"t": "{{token}}", "n": 5}');
		for (const f of forms("it's s3cr&t")) expect(file).not.toContain(f);
		// Without secrets the request is the one that was sent.
		const plain = prepareRequest(block, { env: { token: "t", other: "o" }, aliases: new Set(), result: () => undefined, read: readResult });
		if (!plain.ok) throw new Error(plain.error.message);
		expect(requestForFile(plain.request)).toBe(plain.request);
	});
});

describe("an unset secret", () => {
	it("fails the block saying the secret is not set (not 'missing variable')", async () => {
		const note = parseNote("```http alias=x\nGET {{base}}/json\nAuthorization: Bearer {{token}}\n```");
		const [run] = await runBlocks(note, note, {
			filePath: "api.md",
			env: { base: server.url },
			results: new Map(),
			deps: { transport, cacheKey },
			secrets: { names: new Set(["token"]), unset: new Set(["token"]) },
		});
		expect(run.result.state).toBe("failed");
		expect(run.result.error?.message).toMatch(/^Secret \{\{token\}\} is not set/);
	});
});
