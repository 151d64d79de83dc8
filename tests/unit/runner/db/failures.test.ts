import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import initSqlJs from "sql.js";
import { dbFailureText } from "../../../../src/runner/db/failures";
import { createSqliteDriver } from "../../../../src/runner/db/sqlite";

const statement = (text: string, kind: "select" | "insert") => ({ text, params: [], kind });

describe("db failures: one text per code", () => {
	it.each([
		["connect_failed", "Failed to connect"],
		["auth_failed", "Authentication failed"],
		["save_failed", "Could not save the database"],
		["schema_failed", "Could not read the schema"],
		["cancelled", "[cancelled]"],
	] as const)("%s reads %j", (code, text) => expect(dbFailureText(code)).toBe(text));

	it("a text that names its subject takes it as parameters", () => {
		expect(dbFailureText("sql_error", 'near "FORM": syntax error')).toBe('near "FORM": syntax error');
		expect(dbFailureText("sql_error", "")).toBe("Query failed");
		expect(dbFailureText("timeout", 250)).toBe("Query cancelled (timeout 250 ms)");
		expect(dbFailureText("unknown_connection", "nope", ["shop", "lite"])).toBe('No connection "nope" in user.toml (defined: shop, lite)');
		expect(dbFailureText("unknown_connection", "nope", [])).toBe('No connection "nope" in user.toml');
		expect(dbFailureText("unknown_connection", undefined, [])).toBe("No connection is configured: add a [connections.<name>] table to user.toml");
		expect(dbFailureText("unknown_connection", undefined, ["a", "b"])).toBe("Name the connection: connection=<name> (defined: a, b)");
		expect(dbFailureText("secret_unset", "pg-pass", "shop")).toBe('The password secret "pg-pass" of connection "shop" is not set');
	});

	it("a SQLite file that cannot be written back fails as save_failed, naming the file and the system's error", async () => {
		const SQL = await initSqlJs();
		const db = new SQL.Database();
		db.run("CREATE TABLE t (id INTEGER)");
		const bytes = db.export();
		db.close();
		const file = { path: "data/t.sqlite", read: () => Promise.resolve(bytes), write: () => Promise.reject(new Error("EACCES: permission denied")) };
		const driver = createSqliteDriver(() => Promise.resolve(SQL), file, { readonly: false });
		const out = await driver.run([statement("INSERT INTO t VALUES (1)", "insert")], { timeoutMs: 10_000, maxRows: 10 });
		expect(out).toMatchObject({ kind: "failed", code: "save_failed", message: "Could not save the database", detail: "data/t.sqlite: EACCES: permission denied" });
		await driver.close();
	});

	it("no module under src types a db failure text again", () => {
		// The layers whose texts are English and shared by the plugin and the CLI (the UI's are in its locales).
		const root = join(__dirname, "../../../../src");
		const layers = ["blocks", "runner", "cli", "chat"].map((dir) => join(root, dir));
		const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith(".ts") ? [join(dir, f)] : []));
		const texts = ["Could not save the database", "Authentication failed", "No connection ", "not available here", "Could not read the schema", "has no SQL to run", "is not set: give it a value"];
		const found = layers.flatMap(files).flatMap((path) => {
			const source = readFileSync(path, "utf8");
			return texts.filter((text) => source.includes(text)).map((text) => `${relative(root, path)}: ${text}`);
		});
		expect(found.sort()).toEqual(
			[
				"runner/db/failures.ts: Could not save the database",
				"runner/db/failures.ts: Authentication failed",
				"runner/db/failures.ts: No connection ",
				"runner/db/failures.ts: not available here",
				"runner/db/failures.ts: Could not read the schema",
				"blocks/db.ts: has no SQL to run",
				"runner/failures.ts: is not set: give it a value",
			].sort(),
		);
	});
});
