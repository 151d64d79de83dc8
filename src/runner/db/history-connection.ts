/**
 * The built-in `history` connection (docs/history.md): run history as a read-only SQLite
 * database. Its rows come from the history store itself — what it holds, rows not yet written
 * to the file included — as an image of the database that the SQLite driver opens read-only
 * (`PRAGMA query_only`). Writes are refused before anything runs, and the image is never saved.
 */
import { lexSql, type SqlStatement } from "../../blocks";
import type { SqliteFile } from "./sqlite";

/** What the connection needs of run history: the database as it stands now. */
export interface HistorySnapshots {
	snapshot(): Promise<Uint8Array>;
}

/** Statements the history connection runs. PRAGMA reads as a select but can also set (`query_only = 0`): refused, `pragma_table_info(…)` reads the same. */
const READS = new Set(["select", "explain"]);

/** The first statement the history connection refuses, with its keyword as written (upper-cased), or null. */
export function refusedOnHistory(statements: readonly SqlStatement[]): { index: number; keyword: string } | null {
	for (let index = 0; index < statements.length; index++) {
		const { kind, text } = statements[index];
		const first = firstKeyword(text);
		// `WITH … DELETE` is named by what it does.
		if (!READS.has(kind) || first === "PRAGMA") return { index, keyword: first === "WITH" ? kind.toUpperCase() : first };
	}
	return null;
}

function firstKeyword(text: string): string {
	for (const s of lexSql(text, "sqlite")) {
		if (s.type !== "code") continue;
		const word = /[A-Za-z_]+/.exec(text.slice(s.from, s.to));
		if (word) return word[0].toUpperCase();
	}
	return "";
}

/** Run history as the SQLite driver's file: read from the store on every run, never written. */
export function historySqliteFile(history: HistorySnapshots | null): SqliteFile {
	return {
		path: "run history",
		read: () => (history ? history.snapshot() : Promise.reject(new Error("run history is not kept here (the note is not in a vault)"))),
		write: () => Promise.reject(new Error("the history connection is read-only")),
	};
}
