import { displayText, type BlockEntry } from "../../../src/blocks/search-display";

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
