/**
 * A `.http` export runs with `httpyac send --all` and sends the same requests as the plugin.
 * The format keeps one value per header name, so repeated headers compare joined with ", ".
 */
import { httpFields } from "../../../../src/runner/http/http-run";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parseNote } from "../../../../src/blocks";
import { cacheKey } from "../../../../src/runner/cache-key";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import type { BlockResult } from "../../../../src/runner/result";
import { runBlocks, type RunContext } from "../../../../src/runner/run-note";
import { toHttpFile, type HttpFileEntry } from "../../../../src/runner/snippets/generators";
import { httpyacBin } from "../../../support/httpyac";
import { startTestServer, type RecordedRequest, type TestServer } from "../../../support/servers";
import { CASES, comparable } from "../../../support/snippet-cases";

const exec = promisify(execFile);
jest.setTimeout(600_000);

/**
 * Requests a `.http` file cannot express, by the format's own rules: a body's trailing line
 * breaks (the body ends where the next `###` starts, and tools trim it), and `@` at the start of
 * a body line (httpyac reads it as a file import).
 */
const NOT_EXPRESSIBLE = new Set(["body with trailing newlines", "body starting with @"]);

let server: TestServer;
let transport: ReturnType<typeof createNodeTransport>;
let dir: string;

beforeAll(async () => {
	httpyacBin();
	server = await startTestServer();
	transport = createNodeTransport();
	dir = mkdtempSync(join(tmpdir(), "rb-httpfile-"));
});

afterAll(async () => {
	transport.close();
	await server.close();
	rmSync(dir, { recursive: true, force: true });
});

it("httpyac send --all sends the exported requests exactly as the plugin did", async () => {
	const results = new Map<string, BlockResult>();
	const ctx: RunContext = { filePath: "x.md", env: { base: server.url, user: "zoë o'neil", secret: "t0k$en`x`", weird: "a\\b \"c\" 'd' $e" }, results, deps: { transport, cacheKey } };
	const login = parseNote("```http alias=login\nGET {{base}}/json\n```");
	await runBlocks(login, login, ctx);
	const cases = CASES.filter(([name]) => !NOT_EXPRESSIBLE.has(name));
	const plugin: RecordedRequest[] = [];
	const entries: HttpFileEntry[] = [];
	for (const [name, text] of cases) {
		const note = parseNote("```http alias=login\nGET {{base}}/json\n```\n```http\n" + text + "\n```");
		const before = server.requests.length;
		const [{ result }] = await runBlocks(note, [note[1]], ctx);
		expect([name, result.state]).toEqual([name, "done"]);
		plugin.push(server.requests[before]);
		entries.push({ request: httpFields(result).request!, name: name.replace(/\W+/g, "_") });
	}
	const file = join(dir, "export.http");
	writeFileSync(file, toHttpFile(entries));
	const before = server.requests.length;
	await exec(httpyacBin(), ["send", "export.http", "--all", "--output", "none"], { cwd: dir, timeout: 120_000 });
	const sent = server.requests.slice(before);
	expect(sent).toHaveLength(cases.length);
	sent.forEach((got, i) => {
		const written = new Set(entries[i].request.headers.map(([n]) => n.toLowerCase()));
		expect([cases[i][0], comparable(got, written, true)]).toEqual([cases[i][0], comparable(plugin[i], written, true)]);
	});
});
