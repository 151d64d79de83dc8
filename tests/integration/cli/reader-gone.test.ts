/**
 * `runnable-blocks run note.md | head`: once stdout's reader goes away the CLI stops as a Unix
 * tool stops on SIGPIPE (exit 141), with no internal error and the history of the blocks that ran
 * written.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { nodeStorage } from "../../../src/cli/node-storage";
import { HistoryStore } from "../../../src/runner/history-store";

const CLI = resolve(__dirname, "../../../bin/runnable-blocks.js");

jest.setTimeout(60_000);

let server: http.Server;
let base: string;
const requested: string[] = [];
const held = new Map<string, http.ServerResponse>();
let onHeld: (path: string) => void = () => undefined;

beforeAll(async () => {
	if (!existsSync(resolve(__dirname, "../../../dist/cli.js"))) throw new Error("dist/cli.js is missing: run `npm run build` first");
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
	const block = (alias: string, path: string) => `\`\`\`http alias=${alias}\nGET ${base}${path}\n\`\`\``;
	writeFileSync(join(vault, "api.md"), [block("a0", "/a0"), block("held", "/hold-1"), block("b0", "/hold-2"), block("b1", "/b1")].join("\n\n") + "\n");
});
afterEach(() => rmSync(vault, { recursive: true, force: true }));

it("stops when stdout's reader goes away: exit 141, no internal error, the rows of the blocks that ran written", async () => {
	const child = spawn(process.execPath, [CLI, "run", join(vault, "api.md")], { stdio: ["ignore", "pipe", "pipe"] });
	let stderr = "";
	child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
	const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
	await new Promise<void>((r) => (onHeld = (path) => path === "/hold-1" && r()));
	// The reader goes (as `head` does once it has its lines), then the held block finishes and its line has nowhere to go.
	child.stdout.destroy();
	held.get("/hold-1")?.end('{"ok":true}');
	expect(await exited).toBe(141);
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
	const note = (name: string, alias: string, path: string) => writeFileSync(join(notes, name), `\`\`\`http alias=${alias}\nGET ${base}${path}\n\`\`\`\n`);
	note("1.md", "first", "/suite-first");
	note("2.md", "held", "/hold-suite");
	note("3.md", "last", "/suite-last");
	const child = spawn(process.execPath, [CLI, "run", notes, "--parallel", "1"], { stdio: ["ignore", "pipe", "pipe"] });
	let stderr = "";
	child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
	const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
	await new Promise<void>((r) => (onHeld = (path) => path === "/hold-suite" && r()));
	child.stdout.destroy();
	held.get("/hold-suite")?.end('{"ok":true}');
	expect(await exited).toBe(141);
	expect(stderr).not.toMatch(/internal error/);
	expect(requested).toContain("/suite-first");
	expect(requested).not.toContain("/suite-last");
});
