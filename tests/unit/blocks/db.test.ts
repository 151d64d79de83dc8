import { parseNote } from "../../../src/blocks";
import { lineColumnAt, parseDbBlock } from "../../../src/blocks/db";

const dbBlock = (md: string) => {
	const b = parseNote(md)[0];
	if (b.kind !== "db") throw new Error(`expected a db block, got ${b.kind}`);
	return b;
};

describe("db info tokens", () => {
	it("reads connection, alias, timeout and display", () => {
		const b = dbBlock("```db connection=shop alias=books timeout=500 display=output\nSELECT 1\n```");
		expect(b.info.tokens).toEqual({ connection: "shop", alias: "books", timeout: 500, display: "output" });
		expect(b.problems).toEqual([]);
		expect(b.alias).toBe("books");
		expect(b.db.sql).toBe("SELECT 1");
		expect(b.runnable).toBe(true);
	});

	it.each([
		["connection=a.b", /connection "a.b" is invalid: use the name of a \[connections.<name>\] table/],
		["alias=x.y", /alias "x.y" is invalid/],
		["timeout=0", /timeout "0" is invalid/],
		["display=wide", /display "wide"/],
	])("refuses %j with a clear error at its column", (info, message) => {
		const b = dbBlock(`\n\`\`\`db ${info}\nSELECT 1\n\`\`\``);
		expect(b.problems).toEqual([expect.objectContaining({ code: "invalid_token_value", severity: "error", line: 1, column: 6 })]);
		expect(b.problems[0].message).toMatch(message);
		expect(b.runnable).toBe(false);
	});

	it("keeps unknown tokens with a warning naming the db tokens, and rewrites canonically", () => {
		const b = dbBlock("```db zed timeout=5 alias=a connection=c\nSELECT 1\n```");
		expect(b.problems).toEqual([expect.objectContaining({ code: "unknown_token", severity: "warning" })]);
		expect(b.problems[0].message).toMatch(/known: connection, alias, timeout, display/);
		expect(b.canonicalFenceLine).toBe("```db connection=c alias=a timeout=5 zed");
	});
});

describe("db block content", () => {
	it("needs SQL", () => {
		expect(parseDbBlock("-- nothing\n  \n").problems).toEqual([expect.objectContaining({ code: "empty_block", severity: "error" })]);
		expect(dbBlock("```db\n\n```").runnable).toBe(false);
		expect(parseDbBlock("SELECT 1").problems).toEqual([]);
	});

	it("maps offsets to 0-based line and column", () => {
		expect(lineColumnAt("ab\ncde\nf", 5)).toEqual({ line: 1, column: 2 });
		expect(lineColumnAt("ab", 0)).toEqual({ line: 0, column: 0 });
	});
});
