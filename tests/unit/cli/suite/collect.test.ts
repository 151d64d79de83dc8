import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { collectNotes, filesMatching, hasRunnableBlocks, suitePath } from "../../../../src/cli/suite/collect";
import { UsageError } from "../../../../src/cli/usage";

const RUNNABLE = "```http\nGET http://127.0.0.1/x\n```\n";
let dir: string;

function write(path: string, text = RUNNABLE): void {
	mkdirSync(dirname(join(dir, path)), { recursive: true });
	writeFileSync(join(dir, path), text);
}

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-collect-"));
	write("b.md");
	write("a.md");
	write("sub/Z.md");
	write("sub/c.md");
	write("plain.md", "# no blocks\n");
	write("diff-only.md", "```textdiff\na\n---\nb\n```\n");
	write(".obsidian/x.md");
	write(".trash/y.md");
	write("node_modules/pkg/readme.md");
	write("sub/notes.txt");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("collectNotes", () => {
	it("finds the notes with runnable blocks below a folder, sorted by path in code-unit order, skipping dot-folders and node_modules", () => {
		expect(collectNotes(["."], dir)).toEqual(["a.md", "b.md", "sub/Z.md", "sub/c.md"]);
	});

	it("takes globs, including ** across folders, and names each note once however often it is matched", () => {
		expect(collectNotes(["sub/*.md"], dir)).toEqual(["sub/Z.md", "sub/c.md"]);
		expect(collectNotes(["**/*.md", "sub", "a.md"], dir)).toEqual(["a.md", "b.md", "sub/Z.md", "sub/c.md"]);
	});

	it("takes a named note even without runnable blocks (run says so)", () => {
		expect(collectNotes(["plain.md"], dir)).toEqual(["plain.md"]);
	});

	it.each([
		[["missing"], "missing: no such file or folder"],
		[["nothing/*.md"], "nothing/*.md: no note with runnable blocks matches"],
		[["*.txt"], "*.txt: no note with runnable blocks matches"],
	])("makes %j a usage error: %s", (args, message) => {
		expect(() => collectNotes(args, dir)).toThrow(new UsageError(message));
	});

	it("makes a folder without runnable notes a usage error", () => {
		write("empty/plain.md", "text\n");
		expect(() => collectNotes(["empty"], dir)).toThrow("empty: no note with runnable blocks in this folder");
	});
});

describe("filesMatching", () => {
	it("expands a glob to files of any extension, sorted", () => {
		write("shard-2/junit.xml", "");
		write("shard-1/junit.xml", "");
		expect(filesMatching("shard-*/junit.xml", dir).map((p) => suitePath(p, dir))).toEqual(["shard-1/junit.xml", "shard-2/junit.xml"]);
	});
});

describe("hasRunnableBlocks", () => {
	it.each([
		[RUNNABLE, true],
		["```db connection=main\nSELECT 1\n```\n", true],
		["```js\nlet x\n```\n", false],
		["no fences", false],
	])("%j: %s", (text, expected) => expect(hasRunnableBlocks(text)).toBe(expected));
});
