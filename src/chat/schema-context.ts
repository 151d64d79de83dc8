import type { DbNoteBlock, SqlDialect } from "../blocks";
import type { DbDeps } from "../runner/db/db-result";
import type { SchemaTable } from "../runner/db/driver";
import { connectionOf } from "../runner/db/connection-of";
import { fenced, type ContextChip } from "./context";

/**
 * A connection's schema as the model reads it: one line per table or view, its columns with
 * types and keys, written as SQL people read it (`id INTEGER PRIMARY KEY`, `-> users.id`).
 * Whole tables only up to `cap` characters; the tables left out are counted and named so the
 * model knows they exist.
 */
export function schemaText(connection: string, dialect: SqlDialect, tables: readonly SchemaTable[], cap: number): string {
	const head = `Connection \`${connection}\` (${dialect}), ${count(tables.length, "table or view", "tables and views")}:`;
	const lines: string[] = [head];
	let size = head.length;
	let kept = 0;
	for (const t of tables) {
		const line = tableLine(t);
		if (size + 1 + line.length > cap && kept > 0) break;
		// The first table goes in even when it alone passes the cap, cut: a schema chip with no table says nothing.
		lines.push(size + 1 + line.length > cap ? `${line.slice(0, Math.max(0, cap - size - 2))}…` : line);
		size += 1 + line.length;
		kept++;
	}
	const left = tables.slice(kept);
	if (left.length > 0) {
		const names = left.map(qualified).join(", ");
		lines.push(`… ${count(left.length, "more table", "more tables")} not attached: ${names.length > 300 ? `${names.slice(0, 300)}…` : names}`);
	}
	if (tables.length === 0) lines.push("(no tables)");
	return lines.join("\n");
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const qualified = (t: SchemaTable) => (t.schema ? `${t.schema}.${t.name}` : t.name);

function tableLine(t: SchemaTable): string {
	const columns = t.columns.map((c) => {
		const parts = [c.name, c.type || "ANY"];
		if (c.primaryKey) parts.push("PRIMARY KEY");
		else if (!c.nullable) parts.push("NOT NULL");
		if (c.references) parts.push(`-> ${c.references}`);
		return parts.join(" ");
	});
	return `${t.kind === "view" ? "VIEW " : ""}${qualified(t)}(${columns.join(", ")})`;
}

/** The chip of a db block's connection schema (docs/chat.md). */
export function schemaChip(connection: string, dialect: SqlDialect, tables: readonly SchemaTable[], cap: number): ContextChip {
	return { kind: "db_schema", label: `${connection}: ${count(tables.length, "table", "tables")}`, text: `Database schema:\n${fenced(schemaText(connection, dialect, tables, cap))}` };
}

export type SchemaLookup = { ok: true; connection: string; dialect: SqlDialect; tables: SchemaTable[] } | { ok: false; message: string; detail?: string };

/**
 * The schema of the connection a db block names (its `connection=`, else the only one
 * configured), read through the connection's driver. Never throws: every refusal is a message.
 */
export async function connectionSchema(deps: DbDeps, block: DbNoteBlock): Promise<SchemaLookup> {
	const found = connectionOf(block, deps.connections);
	if (!found.ok) return { ok: false, message: found.error.message };
	const driver = deps.drivers.get(found.name, found.connection);
	if (!driver.ok) return { ok: false, message: driver.message, ...(driver.detail ? { detail: driver.detail } : {}) };
	const out = await driver.driver.schema();
	if (out.kind !== "done") return { ok: false, message: out.message, ...(out.detail ? { detail: out.detail } : {}) };
	return { ok: true, connection: found.name, dialect: driver.driver.dialect, tables: out.tables };
}
