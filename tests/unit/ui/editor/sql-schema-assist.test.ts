import { CompletionContext } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import type { SchemaTable } from "../../../../src/runner/db/driver";
import type { SchemaCache, SchemaState } from "../../../../src/runner/db/schema-cache";
import { noteBlocks } from "../../../../src/ui/editor/note-blocks";
import { columnFactsText, completeSql } from "../../../../src/ui/editor/sql-schema-assist";

const books: SchemaTable = { name: "books", schema: "", kind: "table", columns: [{ name: "id", type: "INTEGER", nullable: false, primaryKey: true }] };
const schemas = { get: (): Promise<SchemaState> => Promise.resolve({ kind: "done", tables: [books] }) } as unknown as SchemaCache;
const port = { connections: () => ({ shop: { type: "sqlite" as const, path: "a.sqlite", readonly: true } }), schemas };

function contextAt(doc: string, marker: string): CompletionContext {
	const state = EditorState.create({ doc: doc.replace(marker, ""), extensions: [noteBlocks] });
	return new CompletionContext(state, doc.indexOf(marker), true);
}

describe("the SQL editor's schema completion", () => {
	it("offers the connection's tables where a table name goes", async () => {
		const got = await completeSql(port, contextAt("```db connection=shop\nSELECT * FROM |\n```", "|"));
		expect(got?.options.map((o) => o.label)).toEqual(["books"]);
	});

	it("offers nothing outside a db block", async () => {
		await expect(completeSql(port, contextAt("text |\n```db connection=shop\nSELECT 1\n```", "|"))).resolves.toBeNull();
	});

	it("says a column's facts", () => {
		expect(columnFactsText(books.columns[0])).toBe("not null · primary key");
	});
});
