import fc from "fast-check";
import { blockAtLine, forEachBlock, parseHttpBlock, parseNote, parseNoteLines, serializeHttpBlock, splitLines, stringLines, type NoteBlock } from "../../../src/blocks";

describe("parseNote", () => {
	const note = [
		"# Bookshop", // 0
		"", // 1
		"```http timeout=500 alias=login extra", // 2
		"POST {{base_url}}/login", // 3
		"", // 4
		'{"u":"demo"}', // 5
		"```", // 6
		"", // 7
		"```http", // 8
		"# @name me", // 9
		"GET {{base_url}}/me", // 10
		"Authorization: Bearer {{login.response.body.$.token}}", // 11
		"```", // 12
		"```http alias=login", // 13
		"GET /dup", // 14
		"```", // 15
	].join("\n");

	it("parses every runnable block with note lines and canonical fence lines", () => {
		const blocks = parseNote(note);
		expect(blocks.map((b) => [b.alias, b.fence.startLine, b.fence.endLine, b.index])).toEqual([
			["login", 2, 6, 0],
			["me", 8, 12, 1],
			["login", 13, 15, 2],
		]);
		expect(blocks[0].canonicalFenceLine).toBe("```http alias=login timeout=500 extra");
		expect(blocks[0].info.tokens).toEqual({ alias: "login", timeout: 500 });
	});

	it("flags an unknown token as a warning but keeps the block runnable", () => {
		const [b] = parseNote(note);
		expect(b.problems).toEqual([expect.objectContaining({ code: "unknown_token", line: 2, severity: "warning" })]);
		expect(b.runnable).toBe(true);
	});

	it("rejects a duplicate alias on the later block only", () => {
		const blocks = parseNote(note);
		expect(blocks[2].problems).toEqual([expect.objectContaining({ code: "duplicate_alias", line: 13 })]);
		expect(blocks[2].problems[0].message).toContain("line 3");
		expect(blocks[2].runnable).toBe(false);
		expect(blocks[0].runnable).toBe(true);
	});

	it("treats `# @name` and an alias token alike for duplicates", () => {
		const blocks = parseNote("```http alias=a\nGET /1\n```\n```http\n// @name a\nGET /2\n```\n");
		expect(blocks[1].problems[0].code).toBe("duplicate_alias");
	});

	it("prefers the alias token over `# @name`", () => {
		expect(parseNote("```http alias=tok\n# @name named\nGET /1\n```")[0].alias).toBe("tok");
	});

	it("says where the alias comes from: the `alias=` token, `# @name`, or nowhere", () => {
		const blocks = parseNote(note);
		expect(blocks.map((b) => [b.alias, b.aliasSource])).toEqual([
			["login", "info"],
			["me", "name"],
			["login", "info"],
		]);
		expect(parseNote("```http\nGET /x\n```")[0].aliasSource).toBeNull();
	});

	it.each([
		// [note, line, column] of the first problem, 0-based
		["```http timeout=5 display=wide\nGET /a\n```", 0, 18],
		["> ```http   mode=tabs\n> GET /a\n> ```", 0, 12],
		["```http\n  G@T http://x\n```", 1, 2],
		["- ```http\n  GET /a\n    Bad Name: x\n  ```", 2, 4],
		["```http alias=a\nGET /1\n```\n```http x=1 alias=a\nGET /2\n```", 3, 12],
		["```http\n# @name bad.name\nGET /1\n```", 1, 2],
	])("places the problem of %j at line %i, column %i", (md, line, column) => {
		const problems = parseNote(md).flatMap((b) => b.problems.filter((p) => p.severity === "error"));
		expect(problems[0]).toMatchObject({ line, column });
	});

	it("rejects an invalid `# @name`", () => {
		const [b] = parseNote("```http\n# @name bad.name\nGET /1\n```");
		expect(b.alias).toBeNull();
		expect(b.problems[0]).toMatchObject({ code: "invalid_token_value", line: 1 });
	});

	it("maps message problems to note lines", () => {
		const [b] = parseNote("text\n\n```http\nGET /a\nno colon\n```");
		expect(b.problems[0]).toMatchObject({ code: "invalid_header", line: 4 });
	});

	it("gives references note offsets, never from the info string", () => {
		const md = "```http alias={{x}}\nGET {{base_url}}/a\n```";
		const [b] = parseNote(md);
		expect(b.references.map((r) => md.slice(r.start, r.end))).toEqual(["{{base_url}}"]);
		expect(b.problems[0].code).toBe("invalid_token_value");
	});

	it("computes reference offsets inside callouts", () => {
		const md = "> ```http\n> GET {{u}}/a\n> ```";
		const [b] = parseNote(md);
		expect(md.slice(b.references[0].start, b.references[0].end)).toBe("{{u}}");
	});

	it("reports an unterminated fence and does not run it", () => {
		const [b] = parseNote("```http\nGET /a");
		expect(b.problems).toEqual([expect.objectContaining({ code: "unterminated_fence", line: 0 })]);
		expect(b.runnable).toBe(false);
	});

	it("does not run a block with an invalid token value, leaving the fence text alone", () => {
		const md = "```http display=wide\nGET /a\n```";
		const [b] = parseNote(md);
		expect(b.runnable).toBe(false);
		expect(b.canonicalFenceLine).toBe("```http display=wide");
	});

	it("finds the block at a line", () => {
		const blocks = parseNote(note);
		expect(blocks[0] === blockAtLine(blocks, 4)).toBe(true);
		expect(blockAtLine(blocks, 7)).toBeUndefined();
		expect(blockAtLine(blocks, 12)?.alias).toBe("me");
	});

	it("includes db and textdiff blocks without an http message", () => {
		const blocks = parseNote("```db connection=app\nselect 1\n```\n```textdiff\na\n```");
		expect(blocks.map((b) => [b.kind, "http" in b])).toEqual([
			["db", false],
			["textdiff", false],
		]);
	});
});

describe("properties", () => {
	const lineChar = fc.constantFrom("G", "E", "T", " ", "\t", ":", "#", "/", "{", "}", "\\", "?", "&", ">", "<", "%", "x", "é", "=", ".");
	const line = fc.array(lineChar, { maxLength: 20 }).map((cs) => cs.join(""));
	const eol = fc.constantFrom("\n", "\r\n");
	const headLike = fc.oneof(
		line,
		fc.constantFrom("GET https://x.test/a", "post {{base_url}}/b", "# @name a", "// c", "  ?q=1", "&p=2", "Accept: */*", "> {% x %}", ">> out.json", ""),
	);
	const block = fc.array(fc.tuple(headLike, eol), { maxLength: 12 }).map((parts) => parts.map(([l, e]) => l + e).join(""));

	it("parse → serialize is byte-exact over generated blocks", () => {
		fc.assert(
			fc.property(block, (text) => {
				expect(serializeHttpBlock(parseHttpBlock(text))).toBe(text);
			}),
			{ numRuns: 2000 },
		);
	});

	it("never throws on arbitrary text, and every problem points at a real line", () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 300 }), (text) => {
				const b = parseHttpBlock(text);
				expect(serializeHttpBlock(b)).toBe(text);
				for (const p of b.problems) expect(p.line).toBeLessThan(Math.max(1, b.lines.length));
			}),
			{ numRuns: 2000 },
		);
	});

	it("never throws scanning arbitrary markdown, and fences never overlap", () => {
		const md = fc.array(fc.oneof(line, fc.constantFrom("```http", "~~~http", "````", "```", "> ```http", "  ```", "- ```http")), { maxLength: 30 }).map((ls) => ls.join("\n"));
		fc.assert(
			fc.property(md, (text) => {
				const blocks = parseNote(text);
				for (let i = 1; i < blocks.length; i++) expect(blocks[i].fence.startLine).toBeGreaterThan(blocks[i - 1].fence.endLine);
			}),
			{ numRuns: 1000 },
		);
	});
});

describe("forEachBlock and the string line source (issue 19: a note read in place)", () => {
	const piece = fc.constantFrom("```http alias=a", "```http alias=b timeout=5", "```HTTP", "~~~http", "```db", "```textdiff", "```", "~~~", "> ```http", "- ```http", "GET http://x/{{a.response.body.$.id}}", "# @name a", "Accept: */*", "", "{", "}", "\r", "\uFEFF```http");
	const note = fc.array(fc.tuple(piece, fc.constantFrom("\n", "\r\n")), { maxLength: 25 }).map((ls) => ls.map(([l, e]) => l + e).join(""));

	it("hands over, one at a time, the blocks the editor's parse gives, duplicate aliases marked", () => {
		fc.assert(
			fc.property(note, (text) => {
				const seen: NoteBlock[] = [];
				forEachBlock(text, (b) => seen.push(b));
				expect(seen).toEqual(parseNoteLines(stringLines(text)).blocks);
				expect(parseNote(text)).toEqual(seen);
				// The http model read from the fence's lines is the model of its content text.
				for (const b of seen) if (b.kind === "http") expect(b.http).toEqual(parseHttpBlock(b.fence.content));
			}),
			{ numRuns: 1000 },
		);
		const dup: NoteBlock[] = [];
		forEachBlock("```http alias=a\nGET /1\n```\n```http alias=a\nGET /2\n```", (b) => dup.push(b));
		expect(dup.map((b) => b.problems.map((p) => [p.code, p.line, p.column]))).toEqual([[], [["duplicate_alias", 3, 8]]]);
	});

	it("gives each line as splitLines does, asked for in any order", () => {
		fc.assert(
			fc.property(note, fc.array(fc.nat(), { maxLength: 10 }), (text, picks) => {
				const all = splitLines(text);
				const lines = stringLines(text);
				expect(lines.count).toBe(all.length);
				for (const pick of picks) expect(lines.line(pick % all.length)).toEqual(all[pick % all.length]);
			}),
			{ numRuns: 1000 },
		);
	});
});
