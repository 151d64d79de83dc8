import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { CLI, expectBuiltCli } from "../../support/cli-process";

const run = promisify(execFile);
const ROOT = resolve(__dirname, "../../..");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is plain CommonJS, as npm runs it
const { cacheFolder, commandOf } = require(join(ROOT, "bin", "compile-cache.js")) as {
	cacheFolder: (env: Record<string, string | undefined>) => string | null;
	commandOf: (argv: string[]) => string;
};

jest.setTimeout(60_000);

let dir: string;
let note: string;

beforeAll(() => {
	expectBuiltCli();
	dir = mkdtempSync(join(tmpdir(), "rb-compile-cache-"));
	note = join(dir, "note.md");
	writeFileSync(note, "# n\n\n```http alias=one\nGET http://127.0.0.1:9/x\n```\n\n```db\nSELECT 1\n```\n");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function parse(cache: string): Promise<string> {
	const { stdout } = await run(process.execPath, [CLI, "parse", note], { env: { ...process.env, RUNNABLE_BLOCKS_COMPILE_CACHE: cache }, timeout: 30_000 });
	return stdout;
}

function freshFolder(name: string): string {
	return join(mkdtempSync(join(dir, `${name}-`)), "cache");
}

describe("the CLI's compile cache", () => {
	it("loads an ASCII dist/cli.js, which V8 keeps as one-byte text (one character elsewhere doubles it)", () => {
		const built = readFileSync(join(ROOT, "dist", "cli.js"));
		const at = built.findIndex((byte) => byte > 0x7f);
		const wide = at === -1 ? null : built.subarray(Math.max(0, at - 60), at + 20).toString("utf8");
		// esbuild escapes strings but keeps comments and String.raw text as written: write those in ASCII.
		expect(wide).toBeNull();
	});

	it("is written by a command's first run and read, unchanged, by the next", async () => {
		const plain = await parse("off");
		expect(plain).toContain("1. GET http://127.0.0.1:9/x");
		const folder = freshFolder("reuse");
		expect(await parse(folder)).toBe(plain);
		const [file, ...others] = readdirSync(folder);
		expect(others).toEqual([]);
		expect(file).toMatch(/-parse\.v8$/);
		const first = { bytes: readFileSync(join(folder, file)), mtime: statSync(join(folder, file)).mtimeMs };
		expect(first.bytes.length).toBeGreaterThan(10_000);
		// A cache V8 rejected would be written again: the file staying as it was shows it was used.
		expect(await parse(folder)).toBe(plain);
		expect(statSync(join(folder, file)).mtimeMs).toBe(first.mtime);
		expect(readFileSync(join(folder, file)).equals(first.bytes)).toBe(true);
	});

	it("survives a damaged cache and writes a good one over it, removing other builds' caches", async () => {
		const folder = freshFolder("damaged");
		const plain = await parse(folder);
		const [file] = readdirSync(folder);
		writeFileSync(join(folder, file), "not a code cache");
		writeFileSync(join(folder, "an-older-build-parse.v8"), "stale");
		expect(await parse(folder)).toBe(plain);
		expect(readdirSync(folder)).toEqual([file]);
		expect(readFileSync(join(folder, file), "utf8")).not.toBe("not a code cache");
	});

	it("writes nothing when off, and runs as well where it cannot write", async () => {
		const plain = await parse("off");
		const blocked = join(dir, "a-file");
		writeFileSync(blocked, "");
		expect(await parse(join(blocked, "cache"))).toBe(plain);
		expect(statSync(blocked).isFile()).toBe(true);
	});

	it("lives in the user's cache folder unless told otherwise, one file per command", () => {
		expect(cacheFolder({ RUNNABLE_BLOCKS_COMPILE_CACHE: "off" })).toBeNull();
		expect(cacheFolder({ RUNNABLE_BLOCKS_COMPILE_CACHE: "/somewhere" })).toBe("/somewhere");
		if (process.platform === "linux") expect(cacheFolder({ XDG_CACHE_HOME: "/xdg" })).toBe(join("/xdg", "runnable-blocks", "compile-cache"));
		expect(commandOf(["node", "cli", "run", "note.md"])).toBe("run");
		expect(commandOf(["node", "cli", "--version"])).toBe("other");
		expect(commandOf(["node", "cli", "../../etc"])).toBe("other");
	});
});
