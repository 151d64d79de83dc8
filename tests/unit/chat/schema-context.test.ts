import { schemaChip, schemaText } from "../../../src/chat/schema-context";
import type { SchemaTable } from "../../../src/runner/db/driver";

const users: SchemaTable = {
	name: "users",
	schema: "public",
	kind: "table",
	columns: [
		{ name: "id", type: "integer", nullable: false, primaryKey: true },
		{ name: "email", type: "text", nullable: false, primaryKey: false },
		{ name: "nick", type: "", nullable: true, primaryKey: false },
	],
};
const orders: SchemaTable = {
	name: "orders",
	schema: "public",
	kind: "table",
	columns: [{ name: "user_id", type: "integer", nullable: true, primaryKey: false, references: "public.users.id" }],
};
const recent: SchemaTable = { name: "recent", schema: "", kind: "view", columns: [{ name: "id", type: "integer", nullable: true, primaryKey: false }] };

describe("schemaText", () => {
	it("writes one line per table, qualified by its schema, with types, keys and references", () => {
		expect(schemaText("app", "postgres", [users, orders, recent], 4000).split("\n")).toEqual([
			"Connection `app` (postgres), 3 tables and views:",
			"public.users(id integer PRIMARY KEY, email text NOT NULL, nick ANY)",
			"public.orders(user_id integer -> public.users.id)",
			"VIEW recent(id integer)",
		]);
	});

	it("counts one table in the singular, and says when there is none", () => {
		expect(schemaText("one", "sqlite", [recent], 4000)).toBe("Connection `one` (sqlite), 1 table or view:\nVIEW recent(id integer)");
		expect(schemaText("empty", "mysql", [], 4000)).toBe("Connection `empty` (mysql), 0 tables and views:\n(no tables)");
	});

	it("stops at the cap between tables and names the ones left out", () => {
		const head = "Connection `app` (postgres), 3 tables and views:";
		const first = "public.users(id integer PRIMARY KEY, email text NOT NULL, nick ANY)";
		expect(schemaText("app", "postgres", [users, orders, recent], head.length + 1 + first.length + 5).split("\n")).toEqual([head, first, "… 2 more tables not attached: public.orders, recent"]);
	});

	it("cuts a long list of tables left out", () => {
		const many = Array.from({ length: 100 }, (_, i) => ({ ...recent, name: `table_${i}` }));
		const last = schemaText("big", "sqlite", many, 80).split("\n").pop() ?? "";
		expect(last.startsWith("… 99 more tables not attached: table_1, table_2")).toBe(true);
		expect(last.endsWith("…")).toBe(true);
		expect(last.length).toBeLessThan(360);
	});
});

describe("schemaChip", () => {
	it("labels the chip with the connection and its table count, and fences the schema", () => {
		const chip = schemaChip("app", "postgres", [users], 4000);
		expect(chip.kind).toBe("db_schema");
		expect(chip.label).toBe("app: 1 table");
		expect(chip.text).toBe("Database schema:\n```\nConnection `app` (postgres), 1 table or view:\npublic.users(id integer PRIMARY KEY, email text NOT NULL, nick ANY)\n```");
	});
});
