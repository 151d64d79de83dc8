/** SQLite database files made by real sql.js, for specs that hand a driver or worker its bytes. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import initSqlJs, { type SqlJsStatic } from "sql.js";

const WASM = join(__dirname, "..", "..", "node_modules", "sql.js", "dist", "sql-wasm.wasm");
/** sql.js from its WebAssembly bytes: in jsdom, sql.js takes itself for a page and would fetch them. */
export const sqlJs = (): Promise<SqlJsStatic> => initSqlJs({ wasmBinary: new Uint8Array(readFileSync(WASM)).buffer });

/** A SQLite database file's bytes after `sql`. */
export async function sqliteImage(sql: string): Promise<Uint8Array> {
	const db = new (await sqlJs()).Database();
	db.run(sql);
	const bytes = db.export();
	db.close();
	return bytes;
}

/** The same, as the ArrayBuffer the SQLite worker protocol carries. */
export async function sqliteFile(sql: string): Promise<ArrayBuffer> {
	return (await sqliteImage(sql)).buffer as ArrayBuffer;
}
