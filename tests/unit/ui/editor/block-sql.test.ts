import { EditorState } from "@codemirror/state";
import type { DbNoteBlock } from "../../../../src/blocks";
import type { SchemaCache } from "../../../../src/runner/db/schema-cache";
import { connectionFor, sqlAt } from "../../../../src/ui/editor/block-sql";
import { noteBlocks } from "../../../../src/ui/editor/note-blocks";

const DOC = "# Note\n\n> ```db connection=shop\n> SELECT id\n> FROM books\n> ```\n";
const state = EditorState.create({ doc: DOC, extensions: [noteBlocks] });
const port = (connections: Record<string, { type: "sqlite"; path: string; readonly: boolean }>) => ({ connections: () => connections, schemas: {} as SchemaCache });

describe("the SQL of the db block at a position", () => {
	it("maps a document position into the block's SQL and back, without the container prefix", () => {
		const pos = DOC.indexOf("books");
		const found = sqlAt(state, pos);
		expect(found?.at.sql).toBe("SELECT id\nFROM books");
		expect(found?.offset).toBe("SELECT id\nFROM ".length);
		expect(found?.at.toDoc(found.offset)).toBe(pos);
	});

	it("is none outside a db block", () => {
		expect(sqlAt(state, 2)).toBeNull();
	});

	it("names the block's connection and dialect when one is configured", () => {
		const block = sqlAt(state, DOC.indexOf("books"))?.at.block as DbNoteBlock;
		expect(connectionFor(port({ shop: { type: "sqlite", path: "a.sqlite", readonly: true } }), block)).toEqual({ name: "shop", dialect: "sqlite" });
		expect(connectionFor(port({}), block)).toBeNull();
	});
});
