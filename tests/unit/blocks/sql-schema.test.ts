import { tableLabel, type AssistTable } from "../../../src/blocks/sql-schema";

const table = (schema: string): AssistTable => ({ name: "books", schema, kind: "table", columns: [] });

describe("tableLabel", () => {
	it("leaves the default schema out and names any other", () => {
		expect(tableLabel(table(""))).toBe("books");
		expect(tableLabel(table("public"))).toBe("books");
		expect(tableLabel(table("shop"))).toBe("shop.books");
		expect(tableLabel(table("shop"), ["shop"])).toBe("books");
	});
});
