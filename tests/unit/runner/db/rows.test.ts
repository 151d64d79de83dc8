import { rowKeys, rowsOf } from "../../../../src/runner/db/rows";

const col = (name: string) => ({ name, type: "TEXT" });

describe("db rows as objects", () => {
	it("keys a repeated column name by its occurrence", () => {
		expect(rowKeys([col("id"), col("name"), col("id"), col("id")])).toEqual(["id", "name", "id (2)", "id (3)"]);
	});

	it("gives every row an object with a value for each column, null where the row is short", () => {
		expect(rowsOf([col("a"), col("a"), col("b")], [[1, 2, "x"], [3]], 10)).toEqual({
			rows: [
				{ a: 1, "a (2)": 2, b: "x" },
				{ a: 3, "a (2)": null, b: null },
			],
			rowCount: 2,
			truncated: false,
		});
	});

	it("keeps the first maxRows rows and counts them all", () => {
		const out = rowsOf([col("n")], [[1], [2], [3]], 2);
		expect(out).toEqual({ rows: [{ n: 1 }, { n: 2 }], rowCount: 3, truncated: true });
		expect(rowsOf([col("n")], [[1], [2]], 2).truncated).toBe(false);
	});
});
