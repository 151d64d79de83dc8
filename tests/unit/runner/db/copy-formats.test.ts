import fc from "fast-check";
import { formatRows, toCsv, toJson, toMarkdown, toTsv } from "../../../../src/runner/db/copy-formats";
import type { DbColumn, DbRow, DbValue } from "../../../../src/runner/db/driver";

const columns: DbColumn[] = [
	{ name: "id", type: "int8" },
	{ name: "name", type: "text" },
	{ name: "note", type: "text" },
];
const rows: DbRow[] = [
	{ id: "9007199254740993", name: "Dune", note: null },
	{ id: 2, name: 'Say "hi", then go', note: "" },
	{ id: 3, name: "two\nlines", note: "a|b\tc" },
];

/** An RFC 4180 reader (quotes, doubled quotes, separators and line breaks inside quotes): what a spreadsheet does with our text. */
function readDelimited(text: string, sep: string): string[][] {
	const out: string[][] = [];
	let row: string[] = [];
	let cell = "";
	let inQuotes = false;
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (inQuotes) {
			if (ch === '"' && text[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (ch === '"') inQuotes = false;
			else cell += ch;
		} else if (ch === '"') inQuotes = true;
		else if (ch === sep) {
			row.push(cell);
			cell = "";
		} else if (ch === "\n" || (ch === "\r" && text[i + 1] === "\n")) {
			if (ch === "\r") i++;
			row.push(cell);
			out.push(row);
			row = [];
			cell = "";
		} else cell += ch;
	}
	return out;
}

describe("copying a result set", () => {
	it("CSV: RFC 4180 quoting, CRLF line ends, NULL an empty field and an empty string a quoted one", () => {
		expect(toCsv(columns, rows)).toBe(['id,name,note', '9007199254740993,Dune,', '2,"Say ""hi"", then go",""', '3,"two\nlines",a|b\tc', ""].join("\r\n"));
	});

	it("TSV: a cell with a tab, quote or line break is quoted, the rest is as written", () => {
		expect(toTsv(columns, rows)).toBe(["id\tname\tnote", "9007199254740993\tDune\t", '2\t"Say ""hi"", then go"\t', '3\t"two\nlines"\t"a|b\tc"', ""].join("\n"));
	});

	it("Markdown: one line per row, pipes and backslashes escaped, line breaks as <br>", () => {
		expect(toMarkdown(columns, rows)).toBe(["| id | name | note |", "| --- | --- | --- |", "| 9007199254740993 | Dune |  |", '| 2 | Say "hi", then go |  |', "| 3 | two<br>lines | a\\|b\tc |", ""].join("\n"));
	});

	it("JSON: the rows as objects, big integers as their exact text, NULL as null", () => {
		expect(JSON.parse(toJson(columns, rows))).toEqual([
			{ id: "9007199254740993", name: "Dune", note: null },
			{ id: 2, name: 'Say "hi", then go', note: "" },
			{ id: 3, name: "two\nlines", note: "a|b\tc" },
		]);
	});

	it("repeated column names keep their row keys (name, name (2))", () => {
		const cols = [{ name: "id", type: "int4" }, { name: "id", type: "int4" }];
		const r = [{ id: 1, "id (2)": 2 }];
		expect(toCsv(cols, r)).toBe("id,id\r\n1,2\r\n");
		expect(JSON.parse(formatRows("json", cols, r))).toEqual([{ id: 1, "id (2)": 2 }]);
	});

	it("JSON and booleans/objects in cells are written as JSON text", () => {
		const cols = [{ name: "doc", type: "jsonb" }, { name: "ok", type: "bool" }];
		expect(toCsv(cols, [{ doc: { a: [1, "x"] }, ok: true }])).toBe('doc,ok\r\n"{""a"":[1,""x""]}",true\r\n');
	});

	const text = fc.string({ unit: fc.constantFrom("a", "b", " ", ",", "\t", '"', "\n", "\r\n", "|", "é") });
	it.each([
		["csv", ","],
		["tsv", "\t"],
	] as const)("%s reads back cell for cell, whatever the text holds", (format, sep) => {
		fc.assert(
			fc.property(fc.array(fc.tuple(text, text), { maxLength: 8 }), (cells) => {
				const cols = [{ name: "a", type: "text" }, { name: "b", type: "text" }];
				const r: DbRow[] = cells.map(([a, b]) => ({ a, b }));
				const back = readDelimited(formatRows(format, cols, r), sep);
				expect(back).toEqual([["a", "b"], ...cells.map(([a, b]) => [a, b])]);
			}),
		);
	});

	it("a Markdown table keeps one line per row and its column count, whatever the text holds", () => {
		fc.assert(
			fc.property(fc.array(text, { maxLength: 8 }), (cells) => {
				const r: DbRow[] = cells.map((a) => ({ a, b: null as DbValue }));
				const lines = toMarkdown([{ name: "a", type: "text" }, { name: "b", type: "text" }], r).trimEnd().split("\n");
				expect(lines).toHaveLength(cells.length + 2);
				for (const l of lines) expect(l.replace(/\\\\/g, "").replace(/\\\|/g, "").split("|")).toHaveLength(4);
			}),
		);
	});
});
