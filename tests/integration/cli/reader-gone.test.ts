/**
 * `runnable-blocks run note.md | head`: once stdout's reader goes away the CLI stops as a Unix
 * tool stops on SIGPIPE (exit 141), with no internal error and the history of the blocks that ran
 * written.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeStorage } from "../../../src/cli/node-storage";
import { HistoryStore } from "../../../src/runner/history-store";
import { CLI, expectBuiltCli } from "../../support/cli-process";

jest.setTimeout(60_000);

let server: http.Server;
let base: string;
const requested: string[] = [];
const held = new Map<string, http.ServerResponse>();
let onHeld: (path: string) => void = () => undefined;

beforeAll(async () => {
	expectBuiltCli();
	server = http.createServer((req, res) => {
		const path = req.url ?? "";
		requested.push(path);
		if (path.startsWith("/hold")) {
			held.set(path, res);
			return onHeld(path);
		}
		res.writeHead(200, { "Content-Type": "application/json" });
		res.end('{"ok":true}');
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
	for (const res of held.values()) res.destroy();
	return new Promise<void>((r) => server.close(() => r()));
});

let vault: string;
beforeEach(() => {
	vault = mkdtempSync(join(tmpdir(), "rb-reader-gone-"));
	const dir = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "user.toml"), "[general]\nparallel = 1\n");
	writeFileSync(join(vault, "api.md"), [fence("a0", "/a0"), fence("held", "/hold-1"), fence("b0", "/hold-2"), fence("b1", "/b1")].join("\n\n") + "\n");
});
afterEach(() => rmSync(vault, { recursive: true, force: true }));

/** An http block of `alias` that GETs `path` on the test server. */
const fence = (alias: string, path: string) => `\`\`\`http alias=${alias}\nGET ${base}${path}\n\`\`\``;

/**
 * Runs the CLI until the server holds `heldPath`; then the reader of its stdout goes (as `head`
 * does once it has its lines) and the held request is answered, so the next line has nowhere to go.
 */
async function runUntilReaderGone(args: string[], heldPath: string): Promise<{ code: number | null; stderr: string }> {
	const child = spawn(process.execPath, [CLI, "run", ...args], { stdio: ["ignore", "pipe", "pipe"] });
	let stderr = "";
	child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
	const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
	await new Promise<void>((r) => (onHeld = (path) => path === heldPath && r()));
	child.stdout.destroy();
	held.get(heldPath)?.end('{"ok":true}');
	return { code: await exited, stderr };
}

it("stops when stdout's reader goes away: exit 141, no internal error, the rows of the blocks that ran written", async () => {
	const { code, stderr } = await runUntilReaderGone([join(vault, "api.md")], "/hold-1");
	expect(code).toBe(141);
	expect(stderr).not.toMatch(/internal error/);
	expect(requested).not.toContain("/b1");
	const store = await HistoryStore.open(nodeStorage, join(vault, ".obsidian", "plugins", "runnable-blocks", "history.sqlite"));
	const rows = ["a0", "held"].flatMap((a) => store.list("api.md", a).map((r) => [r.alias, r.outcome]));
	await store.close();
	expect(rows).toEqual([
		["a0", "done"],
		["held", "done"],
	]);
});

it("stops a suite the same way: the notes after it never start", async () => {
	const notes = join(vault, "notes");
	mkdirSync(notes);
	writeFileSync(join(notes, "1.md"), `${fence("first", "/suite-first")}\n`);
	writeFileSync(join(notes, "2.md"), `${fence("held", "/hold-suite")}\n`);
	writeFileSync(join(notes, "3.md"), `${fence("last", "/suite-last")}\n`);
	const { code, stderr } = await runUntilReaderGone([notes, "--parallel", "1"], "/hold-suite");
	expect(code).toBe(141);
	expect(stderr).not.toMatch(/internal error/);
	expect(requested).toContain("/suite-first");
	expect(requested).not.toContain("/suite-last");
});
