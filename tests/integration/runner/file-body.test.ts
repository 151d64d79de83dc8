/**
 * `< file` bodies and Digest credentials end to end (issue 14): a note's blocks run through the
 * node, fetch and requestUrl transports against servers on 127.0.0.1, the files read from disk
 * by the CLI's port.
 */
import { httpFields } from "../../../src/runner/http/http-run";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RequestUrlParam, RequestUrlResponse } from "obsidian";
import { parseNote } from "../../../src/blocks";
import { nodeBodyFiles } from "../../../src/cli/engine-ports";
import { cacheKey } from "../../../src/runner/cache-key";
import { FetchTransport } from "../../../src/runner/http/fetch-transport";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import type { BlockResult } from "../../../src/runner/result";
import { runBlocks } from "../../../src/runner/run-note";
import type { Transport } from "../../../src/runner/transport";
import { createObsidianTransport } from "../../../src/ui/obsidian-transport";
import { PNG, startHttpbin, startTestServer, type Httpbin, type TestServer } from "../../support/servers";

jest.setTimeout(60_000);

let server: TestServer;
let vault: string;
const node = createNodeTransport();

/** Obsidian's requestUrl as the plugin sees it, over the runtime's fetch (the transport under test is ours). */
async function requestUrl(p: RequestUrlParam): Promise<RequestUrlResponse> {
	const res = await globalThis.fetch(p.url, { method: p.method, headers: p.headers, body: p.body ?? null });
	const response: Pick<RequestUrlResponse, "status" | "headers" | "arrayBuffer"> = { status: res.status, headers: Object.fromEntries(res.headers), arrayBuffer: await res.arrayBuffer() };
	return response as RequestUrlResponse;
}

beforeAll(async () => {
	// obsidian-transport times out with window.setTimeout, as in Obsidian.
	(globalThis as { window?: unknown }).window ??= globalThis;
	server = await startTestServer();
	vault = mkdtempSync(join(tmpdir(), "rb-files-"));
	mkdirSync(join(vault, "notes", "assets"), { recursive: true });
	writeFileSync(join(vault, "notes", "assets", "pixel.png"), PNG);
	writeFileSync(join(vault, "data.json"), '{"user": "{{user}}"}');
});
afterAll(async () => {
	node.close();
	await server.close();
	rmSync(vault, { recursive: true, force: true });
});

async function run(text: string, transport: Transport, env: Record<string, string> = {}): Promise<BlockResult> {
	const note = parseNote(text);
	const runs = await runBlocks(note, note, { filePath: "notes/api.md", env: { base: server.url, ...env }, results: new Map(), force: true, deps: { transport, cacheKey, files: nodeBodyFiles(vault) } });
	return runs[runs.length - 1].result;
}

const multipart = (base: string) =>
	["```http", `POST ${base}/echo`, "Content-Type: multipart/form-data; boundary=XyZ", "", "--XyZ", 'Content-Disposition: form-data; name="pic"; filename="pixel.png"', "Content-Type: image/png", "", "< ./assets/pixel.png", "--XyZ--", "```"].join("\n");

const expected = Buffer.concat([Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="pic"; filename="pixel.png"\r\nContent-Type: image/png\r\n\r\n'), PNG, Buffer.from("\r\n--XyZ--")]);

describe.each([
	["node", () => node],
	["fetch", () => new FetchTransport(globalThis.fetch)],
	["obsidian", () => createObsidianTransport(requestUrl)],
])("through the %s transport", (_name, transport) => {
	it("sends a multipart body with a binary file part, byte for byte", async () => {
		const before = server.requests.length;
		const result = await run(multipart(server.url), transport());
		expect(result.error).toBeUndefined();
		const sent = server.requests.slice(before).find((r) => r.url === "/echo");
		expect(sent?.body.equals(expected)).toBe(true);
		expect(sent?.headers.find(([n]) => n.toLowerCase() === "content-length")?.[1]).toBe(String(expected.byteLength));
	});

	it("sends a <@ file from the vault root with its references resolved", async () => {
		const before = server.requests.length;
		const result = await run(["```http", `POST ${server.url}/echo`, "Content-Type: application/json", "", "<@ data.json", "```"].join("\n"), transport(), { user: "ada" });
		expect(result.error).toBeUndefined();
		expect(server.requests.slice(before).find((r) => r.url === "/echo")?.body.toString()).toBe('{"user": "ada"}');
	});
});

it("a missing file fails the block before anything is sent", async () => {
	const before = server.requests.length;
	const result = await run(["```http", `POST ${server.url}/echo`, "", "< ./missing.bin", "```"].join("\n"), node);
	expect(result.state).toBe("failed");
	expect(result.error).toMatchObject({ code: "body_file_missing", message: 'No file "./missing.bin" for the body' });
	expect(server.requests.length).toBe(before);
});

describe("Digest credentials against httpbin", () => {
	let bin: Httpbin;
	beforeAll(async () => {
		bin = await startHttpbin();
	});
	afterAll(async () => {
		await bin.close();
	});

	it.each(["MD5", "SHA-256"])("answers the %s challenge", async (algorithm) => {
		const result = await run(["```http", `GET ${bin.url}/digest-auth/auth/user/passwd/${algorithm}`, "Authorization: Digest user passwd", "```"].join("\n"), node);
		expect(httpFields(result).head?.status).toBe(200);
		expect(JSON.parse(new TextDecoder().decode(httpFields(result).body))).toEqual({ authenticated: true, user: "user" });
	});

	it("a wrong password ends in the server's 401", async () => {
		const result = await run(["```http", `GET ${bin.url}/digest-auth/auth/user/passwd`, "Authorization: Digest user:wrong", "```"].join("\n"), node);
		expect(httpFields(result).head?.status).toBe(401);
	});
});
