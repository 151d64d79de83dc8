import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNote } from "../../../../src/blocks";
import { main } from "../../../../src/cli/main";
import { blockToJson, type ParsedBlockJson } from "../../../../src/cli/commands/parse";

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
	let out = "";
	let err = "";
	const code = await main(args, (s) => (out += s), (s) => (err += s));
	return { code, out, err };
}

const sample = "tests/fixtures/notes/parse-sample.md";

describe("runnable-blocks parse", () => {
	it("prints one JSON object per runnable block with the documented fields", async () => {
		const { code, out, err } = await run(["parse", sample, "--json"]);
		// Issue 12: a block with errors makes parse exit 2 (after printing every block).
		expect(code).toBe(2);
		expect(err).toBe("");
		const blocks = JSON.parse(out) as ParsedBlockJson[];
		expect(blocks).toHaveLength(2);
		expect(blocks[0]).toEqual({
			kind: "http",
			alias: "login",
			aliasSource: "info",
			startLine: 2,
			endLine: 7,
			info: { alias: "login", timeout: 500 },
			canonicalInfo: "```http alias=login timeout=500 extra",
			method: "POST",
			url: "{{base_url}}/auth/login",
			headers: [["Content-Type", "application/json"]],
			body: '{"username":"demo","password":"demo"}',
			left: null,
			right: null,
			references: [{ text: "{{base_url}}", kind: "variable", start: 53, end: 65 }],
			errors: [],
			warnings: [{ code: "unknown_token", message: expect.stringContaining('"extra"') as unknown, line: 2, column: 32 }],
		});
		const text = readFileSync(sample, "utf8");
		for (const r of blocks.flatMap((b) => b.references)) expect(text.slice(r.start, r.end)).toBe(r.text);
		expect(blocks[1].references.map((r) => r.kind)).toEqual(["variable", "alias"]);
		expect(blocks[1].errors).toEqual([{ code: "invalid_header", message: expect.stringContaining("bad header line") as unknown, line: 12, column: 0 }]);
	});

	it("prints a readable listing without --json", async () => {
		const { code, out } = await run(["parse", sample]);
		expect(code).toBe(2);
		expect(out).toContain("2 runnable blocks");
		expect(out).toContain("POST {{base_url}}/auth/login [login]");
		expect(out).toContain("error: line 13:1:");
	});

	it("exits 0 when no block has errors (warnings are fine)", async () => {
		const { code, out } = await run(["parse", "tests/fixtures/notes/clean.md", "--json"]);
		expect(code).toBe(0);
		const blocks = JSON.parse(out) as ParsedBlockJson[];
		expect(blocks.map((b) => [b.alias, b.aliasSource, b.warnings.length])).toEqual([
			["login", "name", 0],
			["me", "info", 1],
			[null, null, 0],
		]);
	});

	it("reports an invalid method token as an error, not a URL", async () => {
		const { code, out } = await run(["parse", "tests/fixtures/notes/invalid-method.md", "--json"]);
		expect(code).toBe(2);
		const [block] = JSON.parse(out) as ParsedBlockJson[];
		expect(block).toMatchObject({ method: null, errors: [{ code: "invalid_method", line: 1, column: 0 }] });
		expect(block.errors[0].message).toBe('Invalid method "G@T": use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
	});

	it.each([
		[["parse"], /exactly one note/],
		[["parse", "a.md", "b.md"], /exactly one note/],
		[["parse", "tests/fixtures/notes/missing.md"], /cannot read the note \(ENOENT\)/],
		[["parse", "tests/fixtures/notes"], /is a directory/],
		[["parse", sample, "--bogus"], /bogus/],
		[["frobnicate"], /unknown command "frobnicate"/],
	])("exits 2 with a one-line message for %j", async (args, message) => {
		const { code, err } = await run(args);
		expect(code).toBe(2);
		expect(err).toMatch(message);
		expect(err.split("\n")[0]).toMatch(/^runnable-blocks: /);
	});
});

describe("runnable-blocks parse of a long note (issue 19: blocks described as they are read, output in chunks)", () => {
	const dir = mkdtempSync(join(tmpdir(), "rb-parse-long-"));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));
	// 400 blocks, one in seven with an error, aliases reused: well over one 64 K output chunk.
	const text = Array.from({ length: 400 }, (_, i) => `Prose ${i}\n\`\`\`http alias=r${i % 350}${i % 7 === 0 ? " timeout=x" : ""}\nPOST {{base}}/items/${i}\nAccept: */*\n\n{"n": ${i}, "ref": "{{r${i}.response.body.$.id}}"}\n\`\`\`\n`).join("\n");
	const file = join(dir, "long.md");
	writeFileSync(file, text);

	it("prints --json exactly as JSON.stringify of every block, and exits 2 for the errors", async () => {
		const { code, out } = await run(["parse", file, "--json"]);
		expect(out.length).toBeGreaterThan(1 << 17);
		expect(out).toBe(JSON.stringify(parseNote(text).map(blockToJson), null, 2) + "\n");
		expect(code).toBe(2);
	});

	it("prints the count, then every block in order", async () => {
		const { code, out } = await run(["parse", file]);
		const lines = out.split("\n");
		expect(lines[0]).toBe(`${file}: 400 runnable blocks`);
		expect(lines.filter((l) => /^\d+\. POST /.test(l)).map((l) => Number(l.slice(0, l.indexOf(".")))))
			.toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
		expect(lines.filter((l) => l.includes("duplicate_alias") || l.includes("already used"))).toHaveLength(50);
		expect(out.endsWith("\n")).toBe(true);
		expect(code).toBe(2);
	});
});
