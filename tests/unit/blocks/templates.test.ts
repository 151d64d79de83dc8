import { EditorState } from "@codemirror/state";
import { filterTemplates, indentTemplate, parseNote, slashTemplates, slashTrigger } from "../../../src/blocks";

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
});
