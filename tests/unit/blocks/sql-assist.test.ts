import { columnFacts, sqlObjectAt, sqlSpotAt, sqlSuggestions, tablesInStatement } from "../../../src/blocks/sql-assist";
import type { AssistTable } from "../../../src/blocks/sql-schema";

const col = (name: string, type: string, extra: { nullable?: boolean; primaryKey?: boolean; references?: string } = {}) => ({ name, type, nullable: extra.nullable ?? true, primaryKey: extra.primaryKey ?? false, ...(extra.references ? { references: extra.references } : {}) });

const TABLES: AssistTable[] = [
	{ name: "authors", schema: "", kind: "table", columns: [col("id", "INTEGER", { nullable: false, primaryKey: true }), col("name", "TEXT", { nullable: false })] },
	{ name: "books", schema: "", kind: "table", columns: [col("id", "INTEGER", { nullable: false, primaryKey: true }), col("title", "TEXT", { nullable: false }), col("author_id", "INTEGER", { references: "authors.id" })] },
	{ name: "titles", schema: "", kind: "view", columns: [col("title", "TEXT")] },
];

/** The SQL with `|` marking the cursor, and the cursor's offset. */
function at(withBar: string): [string, number] {
	return [withBar.replace("|", ""), withBar.indexOf("|")];
}

function spot(withBar: string) {
	const [sql, offset] = at(withBar);
	return sqlSpotAt(sql, offset, "sqlite");
}

function labels(withBar: string, tables = TABLES): string[] {
	const [sql, offset] = at(withBar);
	return sqlSuggestions(sql, offset, "sqlite", tables)?.options.map((o) => `${o.label}:${o.detail}`) ?? [];
}

describe("sqlSpotAt: what is being typed", () => {
	it.each([
		["SELECT * FROM bo|", "table", "bo"],
		["SELECT * FROM |", "table", ""],
		["SELECT * FROM books b JOIN au|", "table", "au"],
		["SELECT * FROM books, au|", "table", "au"],
		["UPDATE bo|", "table", "bo"],
		["INSERT INTO bo|", "table", "bo"],
		["SELECT ti|", "column", "ti"],
		["SELECT id, ti| FROM books", "column", "ti"],
		["SELECT * FROM books WHERE ti|", "column", "ti"],
		["SELECT * FROM books WHERE id = 1 AND ti|", "column", "ti"],
		["SELECT * FROM books b JOIN authors a ON a.id = b.au|", "column", "au"],
		["UPDATE books SET ti|", "column", "ti"],
	])("%s → %s %s", (sql, kind, prefix) => {
		expect(spot(sql)).toMatchObject({ kind, prefix });
	});

	it("after `name.` it is a column of that name, qualifier kept", () => {
		expect(spot("SELECT b.| FROM books b")).toEqual({ kind: "column", from: 9, prefix: "", qualifier: "b" });
		expect(spot('SELECT "books".ti| FROM books')).toMatchObject({ kind: "column", prefix: "ti", qualifier: "books" });
	});

	it.each([
		["SEL|", "the first word of a statement is a keyword"],
		["SELECT 1; SEL|", "so is the first word after a semicolon"],
		["SELECT * FROM books WHERE title = 'bo|'", "inside a string"],
		["SELECT * FROM books -- bo|", "inside a comment"],
		["SELECT * FROM books WHERE id = {{bo|", "inside a {{reference}}"],
		["SELECT * FROM books b|", "an alias being typed"],
	])("%s: none (%s)", (sql) => {
		expect(spot(sql).kind).toBe("none");
	});

	it("a position just after a closed string is code again", () => {
		expect(spot("SELECT * FROM books WHERE title = 'x' AND ti|").kind).toBe("column");
	});
});

describe("tablesInStatement", () => {
	it("reads FROM lists, JOINs, aliases with and without AS, and stops at keywords", () => {
		expect(tablesInStatement("SELECT * FROM books b, authors AS a LEFT JOIN titles t ON t.title = b.title WHERE b.id = 1")).toEqual([
			{ name: "books", alias: "b" },
			{ name: "authors", alias: "a" },
			{ name: "titles", alias: "t" },
		]);
		expect(tablesInStatement("SELECT * FROM books WHERE id IN (SELECT author_id FROM authors)")).toEqual([{ name: "books" }, { name: "authors" }]);
		expect(tablesInStatement('UPDATE "books" SET title = \'from x\'')).toEqual([{ name: "books" }]);
		expect(tablesInStatement("INSERT INTO public.books (title) VALUES ('a')", "postgres")).toEqual([{ name: "public.books" }]);
	});
});

describe("sqlSuggestions", () => {
	it("offers every table and view where a table name goes", () => {
		expect(labels("SELECT * FROM bo|")).toEqual(["authors:table", "books:table", "titles:view"]);
	});

	it("after `alias.` offers that table's columns with their types", () => {
		expect(labels("SELECT b.| FROM books b")).toEqual(["id:INTEGER", "title:TEXT", "author_id:INTEGER"]);
		expect(labels("SELECT books.ti| FROM books")).toEqual(["id:INTEGER", "title:TEXT", "author_id:INTEGER"]);
		expect(labels("SELECT x.| FROM books b")).toEqual([]);
	});

	it("in a column position offers the statement's columns first (typed, with their table when several), then tables", () => {
		const [sql, offset] = at("SELECT ti| FROM books b JOIN authors a ON a.id = b.author_id");
		const got = sqlSuggestions(sql, offset, "sqlite", TABLES);
		expect(got?.from).toBe(7);
		expect(got?.options.filter((o) => o.kind === "column").map((o) => `${o.label}:${o.detail}`)).toEqual(["id:INTEGER · books", "title:TEXT · books", "author_id:INTEGER · books", "id:INTEGER · authors", "name:TEXT · authors"]);
		expect(got?.options.filter((o) => o.kind !== "column").map((o) => o.label)).toEqual(["authors", "books", "titles"]);
		expect(got?.options[0].boost).toBeGreaterThan(got?.options[got.options.length - 1].boost ?? 0);
		expect(got?.options[2].info).toBe("books.author_id: INTEGER · null · → authors.id");
	});

	it("with one table in scope, a column's detail is its type alone", () => {
		expect(labels("SELECT * FROM books WHERE ti|").slice(0, 3)).toEqual(["id:INTEGER", "title:TEXT", "author_id:INTEGER"]);
	});

	it("before FROM is written, every table's columns are candidates", () => {
		expect(labels("SELECT na|")).toContain("name:TEXT · authors");
	});

	it("a schema-qualified name: tables of another schema are written with it, and `schema.` lists them", () => {
		const pg: AssistTable[] = [
			{ name: "books", schema: "public", kind: "table", columns: [col("id", "int8")] },
			{ name: "events", schema: "audit", kind: "table", columns: [col("at", "timestamptz")] },
		];
		const [sql, offset] = at("SELECT * FROM |");
		expect(sqlSuggestions(sql, offset, "postgres", pg)?.options.map((o) => o.label)).toEqual(["books", "audit.events"]);
		const [sql2, offset2] = at("SELECT * FROM audit.|");
		expect(sqlSuggestions(sql2, offset2, "postgres", pg)?.options.map((o) => o.label)).toEqual(["events"]);
		const [sql3, offset3] = at("SELECT e.| FROM audit.events e");
		expect(sqlSuggestions(sql3, offset3, "postgres", pg)?.options.map((o) => `${o.label}:${o.detail}`)).toEqual(["at:timestamptz"]);
	});

	it("nothing inside strings and comments", () => {
		expect(labels("SELECT 'bo|'")).toEqual([]);
	});
});

describe("sqlObjectAt (hover)", () => {
	const hover = (withBar: string) => {
		const [sql, offset] = at(withBar);
		const o = sqlObjectAt(sql, offset, "sqlite", TABLES);
		return o === null ? null : o.kind === "column" ? `${o.table.name}.${o.column.name} ${o.column.type} [${sql.slice(o.from, o.to)}]` : `table ${o.table.name} [${sql.slice(o.from, o.to)}]`;
	};

	it("a qualified column names its table's column", () => {
		expect(hover("SELECT b.ti|tle FROM books b")).toBe("books.title TEXT [title]");
		expect(hover("SELECT a.i|d FROM books b JOIN authors a ON a.id = b.author_id")).toBe("authors.id INTEGER [id]");
	});

	it("an unqualified column is looked up in the statement's tables first", () => {
		expect(hover("SELECT na|me FROM authors")).toBe("authors.name TEXT [name]");
		expect(hover("SELECT |id FROM authors")).toBe("authors.id INTEGER [id]");
	});

	it("outside the statement's tables, only a name one table has", () => {
		expect(hover("SELECT author_i|d")).toBe("books.author_id INTEGER [author_id]");
		expect(hover("SELECT i|d")).toBeNull();
	});

	it("a table name, and an alias before a dot, name the table", () => {
		expect(hover("SELECT * FROM boo|ks")).toBe("table books [books]");
		expect(hover("SELECT |b.title FROM books b")).toBe("table books [b]");
	});

	it("nothing for keywords, unknown names, strings", () => {
		expect(hover("SEL|ECT 1")).toBeNull();
		expect(hover("SELECT * FROM nope|")).toBeNull();
		expect(hover("SELECT 'tit|le' FROM books")).toBeNull();
	});
});

it("columnFacts says nullability, key and reference", () => {
	expect(columnFacts(col("id", "INTEGER", { nullable: false, primaryKey: true }))).toBe("not null · primary key");
	expect(columnFacts(col("author_id", "INTEGER", { references: "authors.id" }))).toBe("null · → authors.id");
});
