/**
 * PostgreSQL through `pg` (desktop and CLI; the module is handed in, `require`d by the caller
 * behind the desktop guard). One pool per connection; read-only by the session default
 * (`default_transaction_read_only`); cancel and timeout through `pg_cancel_backend`.
 */
import type * as Pg from "pg";
import { statementKind } from "../../blocks/db-sql";
import { cancellation, dbFailed, exactInteger, sqlFailed, type BoundStatement, type Cursor, type DbColumn, type DbDriver, type DbRow, type DbValue, type ExplainOutcome, type PlanNode, type QueryOptions, type QueryOutcome, type SchemaOutcome, type SchemaTable, type StatementSummary } from "./driver";
import { dbFailureText } from "./failures";
import { rowsOf } from "./rows";

export interface ServerConfig {
	host?: string;
	port?: number;
	database?: string;
	user?: string;
	password?: string;
	url?: string;
	ssl?: boolean | { rejectUnauthorized: boolean; ca?: string };
	readonly: boolean;
}

/** Type names of the common built-in OIDs; others are looked up once in pg_type. */
const TYPE_NAMES: Record<number, string> = {
	16: "bool", 17: "bytea", 18: "char", 19: "name", 20: "int8", 21: "int2", 23: "int4", 25: "text", 26: "oid", 114: "json", 142: "xml",
	700: "float4", 701: "float8", 1042: "bpchar", 1043: "varchar", 1082: "date", 1083: "time", 1114: "timestamp", 1184: "timestamptz",
	1186: "interval", 1266: "timetz", 1700: "numeric", 2950: "uuid", 3802: "jsonb",
};

/**
 * Values kept exact: int8 beyond 2^53 and numeric as text, dates and times as the server's
 * text (no time-zone shift), json parsed, bytea as the server's `\x` hex.
 */
function parserFor(oid: number): (text: string) => DbValue {
	switch (oid) {
		case 16:
			return (t) => t === "t";
		case 21:
		case 23:
		case 26:
			return (t) => Number(t);
		case 20:
			return (t) => exactInteger(t);
		case 700:
		case 701:
			return (t) => (/^-?\d/.test(t) ? Number(t) : t); // NaN, Infinity stay text
		case 114:
		case 3802:
			return (t) => JSON.parse(t) as DbValue;
		default:
			return (t) => t;
	}
}

const types = { getTypeParser: ((oid: number) => parserFor(oid)) as unknown as typeof Pg.types.getTypeParser };

/**
 * Explicit keys win over the url, which fills in what they leave out (as for MySQL). The url is
 * read here rather than handed to pg as `connectionString`: pg copies every field it parses from
 * one over the explicit keys, even a password the url does not have ("").
 */
function poolConfig(c: ServerConfig): Pg.PoolConfig {
	const url = c.url ? new URL(c.url) : null;
	const host = c.host || url?.hostname.replace(/^\[(.+)\]$/, "$1"); // [::1] in a url is ::1 to a socket
	const port = c.port || (url?.port ? Number(url.port) : undefined);
	const database = c.database || (url?.pathname ? decodeURIComponent(url.pathname.replace(/^\//, "")) : undefined);
	const user = c.user || (url?.username ? decodeURIComponent(url.username) : undefined);
	return {
		...(host ? { host } : {}),
		...(port ? { port } : {}),
		...(database ? { database } : {}),
		...(user ? { user } : {}),
		...(c.password !== undefined ? { password: c.password } : {}),
		...(c.ssl !== undefined ? { ssl: c.ssl } : {}),
		...(c.readonly ? { options: "-c default_transaction_read_only=on" } : {}),
		types,
		max: 4,
		idleTimeoutMillis: 30000,
		connectionTimeoutMillis: 10000,
		application_name: "runnable-blocks",
	};
}

interface PgError {
	code?: string;
	message?: string;
	position?: string;
}

/** A connect error as an outcome: refused/unreachable, or the server refused who we are. */
function connectFailure(e: unknown, startedAt: number, password: string | undefined): QueryOutcome {
	const err = e as PgError & { errno?: number };
	const detail = scrub(err.message ?? String(e), password);
	if (err.code === "28P01" || err.code === "28000") return dbFailed("auth_failed", detail, startedAt, { engineCode: err.code });
	return dbFailed("connect_failed", detail, startedAt, err.code ? { engineCode: err.code } : {});
}

/** Never show a password, whatever an error message quotes. */
export function scrub(text: string, password: string | undefined): string {
	return password ? text.split(password).join("•••") : text;
}

export function createPostgresDriver(pg: typeof Pg, config: ServerConfig): DbDriver {
	const pool = new pg.Pool(poolConfig(config));
	// An idle client's error (server restart) must not crash the process; the next query reconnects.
	pool.on("error", () => undefined);
	const typeNames = new Map<number, string>(Object.entries(TYPE_NAMES).map(([k, v]) => [Number(k), v]));

	const columnsOf = async (client: Pg.PoolClient, fields: readonly Pg.FieldDef[]): Promise<DbColumn[]> => {
		const unknown = [...new Set(fields.map((f) => f.dataTypeID).filter((oid) => !typeNames.has(oid)))];
		if (unknown.length > 0) {
			const r = await client.query<{ oid: number; typname: string }>("SELECT oid::int4 AS oid, typname FROM pg_type WHERE oid = ANY($1::oid[])", [unknown]);
			for (const row of r.rows) typeNames.set(row.oid, row.typname);
		}
		return fields.map((f) => ({ name: f.name, type: typeNames.get(f.dataTypeID) ?? String(f.dataTypeID) }));
	};

	/** Runs `work` on a pooled client, with engine cancel on abort/timeout. */
	const withClient = async <T extends { kind: string }>(opts: QueryOptions, work: (client: Pg.PoolClient, stopped: () => boolean, at: Cursor) => Promise<T>): Promise<T | QueryOutcome> => {
		const startedAt = Date.now();
		let client: Pg.PoolClient;
		try {
			client = await pool.connect();
		} catch (e) {
			return connectFailure(e, startedAt, config.password);
		}
		const pid = (client as unknown as { processID: number }).processID;
		const cancel = cancellation(opts, () => {
			// Cancel from another connection of the pool: the engine's own cancel.
			pool.query("SELECT pg_cancel_backend($1)", [pid]).catch(() => undefined);
		});
		const cancelled = (): QueryOutcome | null => {
			const why = cancel.reason();
			return why === null ? null : { kind: "cancelled", reason: why, timing: { total: Date.now() - startedAt } };
		};
		const at: Cursor = { index: 0, text: "" };
		try {
			const out = await work(client, () => cancel.reason() !== null, at);
			return cancelled() ?? out;
		} catch (e) {
			const err = e as PgError;
			const stopped = cancelled();
			if (stopped && (err.code === "57014" || err.code === undefined)) return stopped;
			return sqlFailed(err.message ? scrub(err.message, config.password) : "", startedAt, {
				detail: scrub(err.message ?? String(e), config.password),
				...(err.code ? { engineCode: err.code } : {}),
				...(err.position ? { position: { statement: at.index, offset: Number(err.position) - 1 } } : {}),
			});
		} finally {
			cancel.dispose();
			// A cancelled client may still be mid-protocol: drop it rather than reuse it.
			client.release(cancel.reason() !== null);
		}
	};

	const run = async (statements: readonly BoundStatement[], opts: QueryOptions): Promise<QueryOutcome> => {
		const startedAt = Date.now();
		return withClient(opts, async (client, stopped, at) => {
			const summaries: StatementSummary[] = [];
			let last: { columns: DbColumn[]; rows: DbRow[]; rowCount: number; truncated: boolean } = { columns: [], rows: [], rowCount: 0, truncated: false };
			for (let i = 0; i < statements.length; i++) {
				if (stopped()) break;
				const s = statements[i];
				at.index = i;
				const r = await client.query({ text: s.text, values: s.params, rowMode: "array" });
				// A multi-statement simple query gives several results: keep the last set.
				const results = Array.isArray(r) ? (r as Pg.QueryArrayResult[]) : [r];
				for (const one of results) {
					summaries.push({ kind: s.kind, rowCount: one.rowCount ?? null });
					if (one.fields.length > 0) {
						const columns = await columnsOf(client, one.fields);
						last = { columns, ...rowsOf(columns, one.rows as DbValue[][], opts.maxRows) };
					}
				}
			}
			return { kind: "done", ...last, statements: summaries, timing: { total: Date.now() - startedAt } } satisfies QueryOutcome;
		});
	};

	return {
		dialect: "postgres",
		run,
		explain: async (statement, opts): Promise<ExplainOutcome> => {
			const startedAt = Date.now();
			const analyze = opts.analyze === true && statementKind(statement.text, "postgres") === "select";
			const out = await withClient(opts, async (client) => {
				const r = await client.query({ text: `EXPLAIN (FORMAT JSON${analyze ? ", ANALYZE" : ""}) ${statement.text}`, values: statement.params, rowMode: "array" });
				const json = (r.rows[0]?.[0] ?? []) as Array<{ Plan: PgPlan }>;
				return { kind: "done", plan: json.map((p) => pgPlanNode(p.Plan)), raw: JSON.stringify(json, null, 2), timing: { total: Date.now() - startedAt } } satisfies ExplainOutcome;
			});
			return out as ExplainOutcome;
		},
		schema: async (): Promise<SchemaOutcome> => {
			const startedAt = Date.now();
			const out = await withClient({ timeoutMs: 30000, maxRows: Infinity }, async (client) => {
				const r = await client.query<{ schema: string; table: string; relkind: string; column: string; type: string; nullable: boolean; pk: boolean; ref: string | null }>(SCHEMA_SQL);
				const tables = new Map<string, SchemaTable>();
				for (const row of r.rows) {
					const key = `${row.schema}.${row.table}`;
					let t = tables.get(key);
					if (!t) tables.set(key, (t = { name: row.table, schema: row.schema, kind: row.relkind === "v" || row.relkind === "m" ? "view" : "table", columns: [] }));
					t.columns.push({ name: row.column, type: row.type, nullable: row.nullable, primaryKey: row.pk, ...(row.ref ? { references: row.ref } : {}) });
				}
				return { kind: "done", tables: [...tables.values()], timing: { total: Date.now() - startedAt } } satisfies SchemaOutcome;
			});
			return out.kind === "cancelled" ? dbFailedSchema(dbFailureText("timeout", 30000), startedAt) : (out as SchemaOutcome);
		},
		close: () => pool.end().catch(() => undefined),
	};
}

function dbFailedSchema(detail: string, startedAt: number): SchemaOutcome {
	return sqlFailed("", startedAt, { detail }) as SchemaOutcome;
}

interface PgPlan {
	"Node Type": string;
	"Relation Name"?: string;
	"Index Name"?: string;
	"Total Cost"?: number;
	"Plan Rows"?: number;
	"Actual Rows"?: number;
	"Actual Total Time"?: number;
	Filter?: string;
	"Index Cond"?: string;
	"Join Type"?: string;
	Plans?: PgPlan[];
}

function pgPlanNode(p: PgPlan): PlanNode {
	const on = p["Relation Name"] ? ` on ${p["Relation Name"]}` : "";
	const using = p["Index Name"] ? ` using ${p["Index Name"]}` : "";
	const detail = [p["Join Type"] ? `${p["Join Type"]} join` : "", p["Index Cond"] ? `Index Cond: ${p["Index Cond"]}` : "", p.Filter ? `Filter: ${p.Filter}` : "", p["Actual Total Time"] !== undefined ? `actual ${p["Actual Total Time"]} ms` : ""]
		.filter(Boolean)
		.join("; ");
	return {
		label: `${p["Node Type"]}${using}${on}`,
		...(p["Total Cost"] !== undefined ? { cost: p["Total Cost"] } : {}),
		...(p["Actual Rows"] !== undefined ? { rows: p["Actual Rows"] } : p["Plan Rows"] !== undefined ? { rows: p["Plan Rows"] } : {}),
		...(detail ? { detail } : {}),
		children: (p.Plans ?? []).map(pgPlanNode),
	};
}

const SCHEMA_SQL = `
SELECT n.nspname AS schema, c.relname AS table, c.relkind::text AS relkind, a.attname AS column,
  format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
  EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'p' AND a.attnum = ANY (k.conkey)) AS pk,
  (SELECT fc.relname || '.' || fa.attname FROM pg_constraint k
     JOIN pg_class fc ON fc.oid = k.confrelid
     JOIN pg_attribute fa ON fa.attrelid = k.confrelid AND fa.attnum = k.confkey[array_position(k.conkey, a.attnum)]
   WHERE k.conrelid = c.oid AND k.contype = 'f' AND a.attnum = ANY (k.conkey) LIMIT 1) AS ref
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
ORDER BY n.nspname, c.relname, a.attnum`;
