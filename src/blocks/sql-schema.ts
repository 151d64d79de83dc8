/**
 * A connection's tables as the SQL assist and Mod+K read them, and how a table is named in SQL: the
 * small part of the assist needed at start (src/blocks/sql-assist.ts is required on first use).
 */
/** A table or view of a connection's schema, as the driver introspected it (src/runner/db/driver.ts). */
export interface AssistTable {
	name: string;
	/** The schema (postgres) or database (mysql) it lives in; "" for SQLite's main. */
	schema: string;
	kind: "table" | "view";
	columns: ReadonlyArray<AssistColumn>;
}

export interface AssistColumn {
	name: string;
	type: string;
	nullable: boolean;
	primaryKey: boolean;
	references?: string;
}

/** How a table is written in SQL: schema-qualified unless it is in the default schema. */
export function tableLabel(t: AssistTable, defaultSchemas: readonly string[] = ["", "public"]): string {
	return defaultSchemas.includes(t.schema) ? t.name : `${t.schema}.${t.name}`;
}
