import { bindReferences, lexSql, splitStatements, statementKind, type SqlDialect } from "../../../src/blocks/db-sql";

describe("statement splitting", () => {
	const texts = (sql: string, d: SqlDialect) => splitStatements(sql, d).map((s) => s.text);

	it("splits at top-level semicolons and drops empty statements", () => {
		expect(texts("SELECT 1;\n\nSELECT 2 ;  ;\n-- only a comment\n", "sqlite")).toEqual(["SELECT 1", "SELECT 2"]);
	});

	it("keeps semicolons inside strings, identifiers and comments", () => {
		const sql = `SELECT 'a;b', "c;d" FROM t; -- x;y\nSELECT /* ; */ 2`;
		expect(texts(sql, "postgres")).toEqual([`SELECT 'a;b', "c;d" FROM t`, "-- x;y\nSELECT /* ; */ 2"]);
	});

	it("handles doubled quotes and MySQL backslash escapes", () => {
		expect(texts("SELECT 'it''s;'; SELECT 2", "sqlite")).toEqual(["SELECT 'it''s;'", "SELECT 2"]);
		expect(texts("SELECT 'a\\';b'; SELECT 2", "mysql")).toEqual(["SELECT 'a\\';b'", "SELECT 2"]);
		// Without backslash escapes (SQLite), the backslash is an ordinary character.
		expect(texts("SELECT 'a\\'; SELECT 2", "sqlite")).toEqual(["SELECT 'a\\'", "SELECT 2"]);
	});

	it("respects PostgreSQL dollar-quoting, tagged or not", () => {
		const fn = "CREATE FUNCTION f() RETURNS int AS $body$ BEGIN RETURN 1; END; $body$ LANGUAGE plpgsql";
		expect(texts(`${fn}; SELECT $$a;b$$`, "postgres")).toEqual([fn, "SELECT $$a;b$$"]);
	});

	it("keeps a SQLite trigger body whole", () => {
		const trigger = "CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE b SET n = CASE WHEN n > 0 THEN n END; DELETE FROM c; END";
		expect(texts(`${trigger}; SELECT 1`, "sqlite")).toEqual([trigger, "SELECT 1"]);
	});

	it("reports where each statement is", () => {
		const sql = "  SELECT 1;\n SELECT 2";
		const [a, b] = splitStatements(sql, "sqlite");
		expect(sql.slice(a.from, a.to)).toBe("SELECT 1");
		expect(sql.slice(b.from, b.to)).toBe("SELECT 2");
	});

	it("treats # as a comment only in MySQL", () => {
		expect(lexSql("SELECT 1 # x;\n", "mysql").map((s) => s.type)).toEqual(["code", "comment", "code"]);
		expect(lexSql("SELECT 1 # 2", "postgres").map((s) => s.type)).toEqual(["code"]);
	});
});

describe("statement kind", () => {
	it.each([
		["select * from t", "select"],
		["  (SELECT 1)", "select"],
		["WITH x AS (SELECT 1) SELECT * FROM x", "select"],
		["WITH x AS (SELECT 1) DELETE FROM t WHERE id IN (SELECT * FROM x)", "delete"],
		["insert into t values (1)", "insert"],
		["REPLACE INTO t VALUES (1)", "insert"],
		["UPDATE t SET a = 1", "update"],
		["delete from t", "delete"],
		["CREATE TABLE t (a int)", "ddl"],
		["drop table t", "ddl"],
		["PRAGMA table_info(t)", "select"],
		["EXPLAIN SELECT 1", "explain"],
		["BEGIN", "transaction"],
		["SET search_path = x", "other"],
		["-- c\n/* d */ select 1", "select"],
	])("%j is %s", (sql, kind) => {
		expect(statementKind(sql)).toBe(kind);
	});
});

describe("references become parameters", () => {
	it("binds each reference in code as a positional placeholder", () => {
		const pg = bindReferences("SELECT * FROM books WHERE id = {{a.response.body.$.id}} AND title = {{t}}", "postgres");
		expect(pg.ok && pg.text).toBe("SELECT * FROM books WHERE id = $1 AND title = $2");
		expect(pg.ok && pg.references.map((r) => r.reference.inner)).toEqual(["a.response.body.$.id", "t"]);
		const my = bindReferences("SELECT {{x}}, {{y}}", "mysql");
		expect(my.ok && my.text).toBe("SELECT ?, ?");
	});

	it("binds a reference written as a whole quoted literal, quotes included", () => {
		const b = bindReferences("SELECT * FROM t WHERE name = '{{name}}'", "sqlite");
		expect(b.ok && b.text).toBe("SELECT * FROM t WHERE name = ?");
	});

	it("leaves references in comments alone", () => {
		const b = bindReferences("SELECT 1 -- {{x}}\n/* {{y}} */", "sqlite");
		expect(b.ok && b.text).toBe("SELECT 1 -- {{x}}\n/* {{y}} */");
		expect(b.ok && b.references).toEqual([]);
	});

	it.each([
		["SELECT * FROM {{table}}", "sqlite"],
		["SELECT * FROM a JOIN {{t}} ON 1", "postgres"],
		["INSERT INTO {{t}} VALUES (1)", "mysql"],
		["UPDATE {{t}} SET a = 1", "sqlite"],
		["SELECT t.{{col}} FROM t", "sqlite"],
		["SELECT {{t}}.a FROM t", "sqlite"],
		["SELECT 1 ORDER BY {{col}}", "postgres"],
		['SELECT "{{col}}" FROM t', "postgres"],
		["SELECT `{{col}}` FROM t", "mysql"],
	] as const)("refuses an identifier reference in %j, suggesting a literal", (sql, dialect) => {
		const b = bindReferences(sql, dialect);
		expect(b.ok).toBe(false);
		if (!b.ok) {
			expect(b.error.code).toBe("identifier_reference");
			expect(b.error.message).toMatch(/Write the name literally/);
			expect(sql.slice(b.error.at)).toMatch(/^["`]?\{\{/);
		}
	});

	it("refuses a reference inside a longer string", () => {
		const b = bindReferences("SELECT * FROM t WHERE a LIKE '%{{x}}%'", "sqlite");
		expect(!b.ok && b.error.code).toBe("reference_in_string");
	});

	it("maps offsets of the bound text back to the statement as written", () => {
		const sql = "SELECT {{long.reference}} + 1, bad";
		const b = bindReferences(sql, "postgres");
		if (!b.ok) throw new Error("expected a binding");
		const at = b.text.indexOf("bad");
		expect(b.originalOffset(at)).toBe(sql.indexOf("bad"));
		expect(b.originalOffset(b.text.indexOf("$1"))).toBe(sql.indexOf("{{"));
		expect(b.originalOffset(3)).toBe(3);
	});
});

describe("references inside SQL are lexed whole", () => {
	it.each(["sqlite", "postgres", "mysql"] as const)("keeps {{a.response.body.$.books[0].id}} one reference in %s", (dialect) => {
		const b = bindReferences("SELECT * FROM s WHERE id = {{books.response.body.$.books[0].id}} AND n = {{x.response.body.$['k']}}", dialect);
		expect(b.ok && b.references.map((r) => r.reference.inner)).toEqual(["books.response.body.$.books[0].id", "x.response.body.$['k']"]);
	});
});
