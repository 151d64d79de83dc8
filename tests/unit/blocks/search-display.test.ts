import { BlockSearchIndex } from "../../../src/blocks/search-index";
import { displayText, schemaEntries, schemaInsertText, type BlockEntry } from "../../../src/blocks/search-display";

describe("displayText: what the Mod+K list shows", () => {
	it("shows an http block as `METHOD URL · alias · note`", () => {
		const entry: BlockEntry = { kind: "block", path: "api/Books.md", line: 3, alias: "books", method: "GET", url: "{{base}}/books", blockType: "http" };
		expect(displayText(entry)).toBe("GET {{base}}/books · books · Books");
	});

	it("leaves out a missing alias", () => {
		expect(displayText({ kind: "block", path: "Books.md", line: 0, method: "DELETE", url: "/books/1", blockType: "http" })).toBe("DELETE /books/1 · Books");
	});

	it("names the block type of a block without a method", () => {
		expect(displayText({ kind: "block", path: "Db.md", line: 0, alias: "t", method: "", url: "SELECT 1", blockType: "db" })).toBe("db SELECT 1 · t · Db");
	});

	it("shows a variable as `{{name}} · environment`, marking secrets", () => {
		expect(displayText({ kind: "variable", environment: "dev", name: "base_url", secret: false })).toBe("{{base_url}} · dev");
		expect(displayText({ kind: "variable", environment: "prod", name: "token", secret: true })).toBe("{{token}} · prod · secret");
	});
});

describe("schema entries in Mod+K", () => {
	const tables = [
		{ name: "books", schema: "public", kind: "table" as const, columns: [{ name: "id", type: "int8", nullable: false, primaryKey: true }, { name: "title", type: "text", nullable: false, primaryKey: false }] },
		{ name: "events", schema: "audit", kind: "view" as const, columns: [] },
	];

	it("lists each table then its columns with their types, schema-qualified outside the default schema", () => {
		expect(schemaEntries("shop", tables).map(displayText)).toEqual(["table books · shop", "column books.id int8 · shop", "column books.title text · shop", "view audit.events · shop"]);
	});

	it("choosing inserts the table's name, or table.column", () => {
		expect(schemaEntries("shop", tables).map(schemaInsertText)).toEqual(["books", "books.id", "books.title", "audit.events"]);
	});

	it("are found by the index by table, column or type, and replaced per connection", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Shop.md", "```db connection=shop\nSELECT * FROM books\n```\n");
		index.setSchema("shop", schemaEntries("shop", tables));
		expect(index.search("books title").map((r) => displayText(r.entry))[0]).toBe("column books.title text · shop");
		expect(index.search("int8").map((r) => displayText(r.entry))).toEqual(["column books.id int8 · shop"]);
		expect(index.size).toBe(5);
		index.keepSchemas(["other"]);
		expect(index.search("int8")).toEqual([]);
		expect(index.size).toBe(1);
	});
});
