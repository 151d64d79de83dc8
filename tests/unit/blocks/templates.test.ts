import { EditorState } from "@codemirror/state";
import { dbQueryRows, dbQueryTemplate, filterTemplates, indentTemplate, parseNote, scanFences, slashTemplates, slashTrigger } from "../../../src/blocks";

/** Applies a template at the cursor of a real CodeMirror state, as the suggest does. */
function choose(doc: string, cursor: number, name: string): { doc: string; line: string } {
	let state = EditorState.create({ doc, selection: { anchor: cursor } });
	const line = state.doc.lineAt(cursor);
	const trig = slashTrigger(line.text, cursor - line.from);
	if (!trig) throw new Error("no trigger");
	const indent = line.text.slice(0, trig.start);
	const t = indentTemplate(filterTemplates(slashTemplates(), name)[0], indent);
	state = state.update({ changes: { from: line.from + trig.start, to: cursor, insert: t.text }, selection: { anchor: line.from + trig.start + t.cursor } }).state;
	return { doc: state.doc.toString(), line: state.doc.lineAt(state.selection.main.head).text };
}

describe("slash commands", () => {
	it("lists exactly the seed's eight entries", () => {
		expect(slashTemplates().map((t) => t.name)).toEqual(["HTTP Request", "HTTP GET", "HTTP POST", "HTTP PUT", "HTTP DELETE", "DB Query", "Diff", "Mermaid"]);
	});

	it.each([
		["/", 1, ""],
		["/HTTP P", 7, "HTTP P"],
		["  /db", 5, "db"],
		["\t/Mer", 5, "Mer"],
	])("opens on %j", (line, ch, query) => {
		expect(slashTrigger(line, ch)?.query).toBe(query);
	});

	it.each([
		["a /b", 4],
		["text/", 5],
		["/usr/bin", 8],
		["/x tail", 2],
		["//comment", 2],
		["/1", 2],
	])("does not open on %j (mid-line, paths, comments)", (line, ch) => {
		expect(slashTrigger(line, ch)).toBeNull();
	});

	it.each([
		["http post", ["HTTP POST"]],
		["HTTP P", ["HTTP POST", "HTTP PUT"]],
		["mer", ["Mermaid"]],
		["d", ["HTTP DELETE", "DB Query", "Diff"]],
		["zzz", []],
	])("filters %j", (q, names) => {
		expect(filterTemplates(slashTemplates(), q).map((t) => t.name)).toEqual(names);
	});

	it("inserts HTTP POST with the cursor on the URL line, giving a runnable block", () => {
		const { doc, line } = choose("Intro\n/HTTP POST", 16, "HTTP POST");
		expect(line).toBe("POST {{base_url}}/");
		const [block] = parseNote(doc);
		if (block.kind !== "http") throw new Error(`expected an http block, got ${block.kind}`);
		expect(block.http.method).toBe("POST");
		expect(block.http.headers.map((h) => h.name)).toEqual(["Content-Type"]);
		expect(block.problems).toEqual([]);
	});

	it("puts the cursor on the SQL line for DB Query and keeps list indentation", () => {
		expect(choose("- item\n  /DB", 12, "DB Query").line).toBe("  SELECT * FROM table_name LIMIT 100;");
	});

	it("opens DB Query up into one row per connection and a new-connection row, filtered by connection name too", () => {
		const rows = dbQueryRows(slashTemplates(), ["shop", "warehouse"]);
		expect(rows.map((t) => `${t.name}${t.connection === undefined ? "" : `:${t.connection}`}`)).toEqual(["HTTP Request", "HTTP GET", "HTTP POST", "HTTP PUT", "HTTP DELETE", "DB Query:shop", "DB Query:warehouse", "DB Query:null", "Diff", "Mermaid"]);
		expect(filterTemplates(rows, "db ware").map((t) => t.connection)).toEqual(["warehouse"]);
		expect(filterTemplates(rows, "db").map((t) => t.connection)).toEqual(["shop", "warehouse", null]);
		expect(filterTemplates(rows, "db new").map((t) => t.connection)).toEqual([null]);
		expect(filterTemplates(dbQueryRows(slashTemplates(), ["shop"], "Nueva conexión…"), "db nue").map((t) => t.connection)).toEqual([null]);
		expect(dbQueryRows(slashTemplates(), []).filter((t) => t.name === "DB Query").map((t) => t.connection)).toEqual([null]);
	});

	it("DB Query names the connection and its first table, the cursor on the SQL line, runnable as is", () => {
		const t = indentTemplate(dbQueryTemplate("shop", "authors"), "  ");
		expect(t.text).toBe("```db connection=shop\n  SELECT * FROM authors LIMIT 100;\n  ```\n");
		expect(t.text.slice(t.cursor)).toMatch(/^\* FROM authors LIMIT 100;\n/);
		const [block] = parseNote(dbQueryTemplate("shop", "authors").text);
		expect(block).toMatchObject({ kind: "db", runnable: true, problems: [] });
		expect(block.kind === "db" && block.info.tokens.connection).toBe("shop");
		expect(dbQueryTemplate("shop", undefined).text).toContain("SELECT * FROM table_name LIMIT 100;");
	});

	it("inserts an empty diff with the cursor in the left pane", () => {
		const { doc, line } = choose("# Note\n/diff", 12, "diff");
		expect(doc).toBe("# Note\n```textdiff\n\n=== right ===\n\n```\n");
		expect(line).toBe("");
		const [block] = parseNote(doc);
		if (block.kind !== "textdiff") throw new Error("expected a textdiff block");
		expect(block.textdiff).toMatchObject({ left: "", right: "", separated: true });
		expect(block.problems).toEqual([]);
	});

	it("inserts a mermaid flowchart, not a block of ours, with the cursor on its first line", () => {
		const { doc, line } = choose("/mermaid", 8, "mermaid");
		expect(line).toBe("flowchart TD");
		expect(parseNote(doc)).toEqual([]);
		expect(scanFences(doc)).toEqual([expect.objectContaining({ lang: "mermaid", terminated: true })]);
	});
});
