import { readFileSync } from "node:fs";
import { main } from "../../../src/cli/main";
import type { ParsedBlockJson } from "../../../src/cli/commands/parse";

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
