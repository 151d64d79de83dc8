/**
 * Equivalence of exported snippets with the plugin's own run (docs/export.md): each snippet is
 * executed by the real tool against a recording server on 127.0.0.1, and what the server
 * recorded must equal what the plugin's node transport sent for the same block.
 */
import { httpFields } from "../../../../src/runner/http/http-run";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parseNote } from "../../../../src/blocks";
import { cacheKey } from "../../../../src/runner/cache-key";
import { nodeBodyFiles } from "../../../../src/cli/engine-ports";
import { locateBodyFile, type BodyFiles } from "../../../../src/runner/file-parts";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import type { BlockResult } from "../../../../src/runner/result";
import { runBlocks, type RunContext } from "../../../../src/runner/run-note";
import { toCurl, toFetch, toHttpie, toPython } from "../../../../src/runner/snippets/generators";
import { startTestServer, type RecordedRequest, type TestServer } from "../../../support/servers";
import { CASES, comparable } from "../../../support/snippet-cases";

const exec = promisify(execFile);
jest.setTimeout(180_000);

type Tool = "curl" | "httpie" | "python" | "fetch";
/** fetch and requests take one value per header name: repeated headers arrive joined with ", " (RFC 9110 §5.3). */
const JOINS_REPEATS: Record<Tool, boolean> = { curl: false, httpie: false, python: true, fetch: true };


let server: TestServer;
let transport: ReturnType<typeof createNodeTransport>;
let dir: string;
/** The vault of the file-body cases: the note sits at its root, its body files beside it. */
let files: BodyFiles;
const results = new Map<string, BlockResult>();

function context(): RunContext {
	return {
		filePath: "equivalence.md",
		env: { base: server.url, user: "zoë o'neil", secret: "t0k$en`x`", weird: "a\\b \"c\" 'd' $e" },
		results,
		deps: { transport, cacheKey, files },
	};
}

beforeAll(async () => {
	server = await startTestServer();
	transport = createNodeTransport();
	dir = mkdtempSync(join(tmpdir(), "rb-snippets-"));
	files = nodeBodyFiles(dir);
	// Every byte value, and text a shell or a string literal would mangle if it were inlined.
	writeFileSync(join(dir, "bytes.bin"), Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from("\r\n'$(id) `x` \\ %s \"q\"")]));
	writeFileSync(join(dir, "it's data.json"), '{"name": "Zoë", "note": "$HOME"}\n');
	const login = parseNote("```http alias=login\nGET {{base}}/json\n```");
	await runBlocks(login, login, context());
});

afterAll(async () => {
	transport.close();
	await server.close();
	rmSync(dir, { recursive: true, force: true });
});

/** Runs `fn` and returns the one request the server recorded meanwhile. */
async function recorded(fn: () => Promise<unknown>): Promise<RecordedRequest> {
	const before = server.requests.length;
	await fn();
	const added = server.requests.slice(before);
	if (added.length !== 1) throw new Error(`expected one recorded request, got ${added.length}`);
	return added[0];
}

async function runTool(tool: Tool, code: string, name: string): Promise<void> {
	const opts = { timeout: 30_000, maxBuffer: 10 * 1024 * 1024 };
	if (tool === "curl" || tool === "httpie") {
		await exec("/bin/sh", ["-c", `${code} > /dev/null`], opts);
	} else if (tool === "python") {
		const file = join(dir, `${name}.py`);
		writeFileSync(file, code);
		await exec("/usr/bin/python3", [file], opts);
	} else {
		const file = join(dir, `${name}.js`);
		writeFileSync(file, code);
		await exec(process.execPath, [file], opts);
	}
}

/** Bodies with `< file` parts: each snippet reads the files when it runs (by their absolute path). */
const FILE_CASES: Array<[string, string]> = [
	["a binary file", "POST {{base}}/echo\nContent-Type: application/octet-stream\n\n< ./bytes.bin"],
	["a file with a quote and a space in its name", "PUT {{base}}/echo\nContent-Type: application/json\n\n< it's data.json"],
	[
		"multipart with a file between text parts",
		'POST {{base}}/echo\nContent-Type: multipart/form-data; boundary=XYZ\n\n--XYZ\nContent-Disposition: form-data; name="text"\n\nhello \'world\' $HOME\n--XYZ\nContent-Disposition: form-data; name="file"; filename="bytes.bin"\nContent-Type: application/octet-stream\n\n< ./bytes.bin\n--XYZ--',
	],
];

describe.each([...CASES, ...FILE_CASES])("%s", (name, text) => {
	let plugin: RecordedRequest;
	let result: BlockResult;

	beforeAll(async () => {
		// The login block is part of every note (its result is already cached), so alias references resolve.
		const note = parseNote("```http alias=login\nGET {{base}}/json\n```\n```http\n" + text + "\n```");
		plugin = await recorded(async () => {
			[{ result }] = await runBlocks(note, [note[1]], context());
			// A run that sent nothing says why (a reset connection, a timeout) before the count does.
			expect(result.error).toBeUndefined();
		});
		expect(result.state).toBe("done");
	});

	const opts = { locate: (path: string) => locateBodyFile(files, "equivalence.md", path) };
	it.each<[Tool, (r: BlockResult) => string]>([
		["curl", (r) => toCurl(httpFields(r).request!, opts)],
		["httpie", (r) => toHttpie(httpFields(r).request!, opts)],
		["python", (r) => toPython(httpFields(r).request!, opts)],
		["fetch", (r) => toFetch(httpFields(r).request!, opts)],
	])("%s sends what the plugin sent", async (tool, generate) => {
		const code = generate(result);
		const got = await recorded(() => runTool(tool, code, `${name.replace(/\W+/g, "-")}-${tool}`));
		const written = new Set((httpFields(result).request?.headers ?? []).map(([n]) => n.toLowerCase()));
		expect(comparable(got, written, JOINS_REPEATS[tool])).toEqual(comparable(plugin, written, JOINS_REPEATS[tool]));
	});
});
