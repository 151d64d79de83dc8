/**
 * MySQL and MariaDB through `mysql2` (desktop and CLI; the module is handed in). One pool per
 * connection; read-only by `SET SESSION TRANSACTION READ ONLY`; cancel and timeout through
 * `KILL QUERY` from another pooled connection. Statements with parameters go through the
 * server's prepared-statement protocol (`execute`): values never become SQL text.
 */
import type * as MysqlPromise from "mysql2/promise";
import { cancellation, dbFailed, exactInteger, hexBytes, nearOffset, type BoundStatement, type Cursor, type DbColumn, type DbDriver, type DbJson, type DbRow, type DbValue, type ExplainOutcome, type PlanNode, type QueryOptions, type QueryOutcome, type SchemaOutcome, type SchemaTable, sqlFailed, type StatementSummary } from "./driver";
import { scrub, type ServerConfig } from "./postgres";
import { rowsOf } from "./rows";

interface Field {
	name: string;
	columnType?: number;
	characterSet?: number;
	columnLength?: number;
	flags?: number;
}

const BINARY_CHARSET = 63;

/** The protocol's column type as a type name (what the result header shows). */
function typeName(f: Field): string {
	const binary = f.characterSet === BINARY_CHARSET;
	switch (f.columnType) {
		case 0:
		case 246:
			return "decimal";
		case 1:
			return f.columnLength === 1 ? "tinyint(1)" : "tinyint";
		case 2:
			return "smallint";
		case 3:
			return "int";
		case 4:
			return "float";
		case 5:
			return "double";
		case 6:
			return "null";
		case 7:
			return "timestamp";
		case 8:
			return "bigint";
		case 9:
			return "mediumint";
		case 10:
			return "date";
		case 11:
			return "time";
		case 12:
			return "datetime";
		case 13:
			return "year";
		case 15:
		case 253:
			return binary ? "varbinary" : "varchar";
		case 16:
			return "bit";
		case 245:
			return "json";
		case 247:
			return "enum";
		case 248:
			return "set";
		case 249:
		case 250:
		case 251:
		case 252:
			return binary ? "blob" : "text";
		case 254:
			return binary ? "binary" : "char";
		default:
			return String(f.columnType);
	}
}

/** A value made exact and JSON-friendly: bool for tinyint(1), bytes as hex, JSON parsed, big integers as text. */
function valueOf(v: unknown, f: Field): DbValue {
	if (v === null || v === undefined) return null;
	if (v instanceof Uint8Array) return f.columnType === 16 && v.length <= 6 ? v.reduce((n, b) => n * 256 + b, 0) : hexBytes(v);
	if (f.columnType === 1 && f.columnLength === 1 && typeof v === "number") return v !== 0;
	if (typeof v === "bigint") return exactInteger(v);
	if (f.columnType === 245 && typeof v === "string") {
		try {
			return JSON.parse(v) as DbJson;
		} catch {
			return v;
		}
	}
	if (typeof v === "object") return v as DbJson;
	return v as DbValue;
}

interface MysqlError {
	code?: string;
	errno?: number;
	sqlMessage?: string;
	message?: string;
}

/**
 * The code a failure shows: mysql2's name for it (ER_PARSE_ERROR, ECONNREFUSED), else the server's
 * error number. The plugin's mysql2 knows only the common names (esbuild.config.mjs, `leanDrivers`).
 */
function engineCode(err: MysqlError): string | undefined {
	return err.code ?? (err.errno !== undefined ? `errno ${err.errno}` : undefined);
}

export function createMysqlDriver(mysql: typeof MysqlPromise, config: ServerConfig): DbDriver {
	const url = config.url ? new URL(config.url) : null;
	const pool = mysql.createPool({
		host: config.host ?? url?.hostname ?? "127.0.0.1",
		port: config.port ?? (url?.port ? Number(url.port) : 3306),
		database: config.database ?? (url?.pathname.replace(/^\//, "") || undefined),
		user: config.user ?? (url?.username ? decodeURIComponent(url.username) : undefined),
		password: config.password,
		...(config.ssl === true ? { ssl: {} } : typeof config.ssl === "object" ? { ssl: { rejectUnauthorized: config.ssl.rejectUnauthorized, ...(config.ssl.ca ? { ca: config.ssl.ca } : {}) } } : {}),
		connectionLimit: 4,
		connectTimeout: 10000,
		supportBigNumbers: true,
		bigNumberStrings: false,
		decimalNumbers: false,
		dateStrings: true,
		multipleStatements: false,
	});

	const withConnection = async <T extends { kind: string }>(opts: QueryOptions, work: (conn: MysqlPromise.PoolConnection, stopped: () => boolean, at: Cursor) => Promise<T>): Promise<T | QueryOutcome> => {
		const startedAt = Date.now();
		let conn: MysqlPromise.PoolConnection;
		try {
			conn = await pool.getConnection();
			if (config.readonly) await conn.query("SET SESSION TRANSACTION READ ONLY");
		} catch (e) {
			const err = e as MysqlError;
			const detail = scrub(err.sqlMessage ?? err.message ?? String(e), config.password);
			const auth = err.code === "ER_ACCESS_DENIED_ERROR" || err.code === "ER_DBACCESS_DENIED_ERROR" || err.errno === 1045;
			const code = engineCode(err);
			return dbFailed(auth ? "auth_failed" : "connect_failed", detail, startedAt, code ? { engineCode: code } : {});
		}
		const thread = conn.threadId;
		const cancel = cancellation(opts, () => {
			pool.query(`KILL QUERY ${Number(thread)}`).catch(() => undefined);
		});
		const at: Cursor = { index: 0, text: "" };
		try {
			const out = await work(conn, () => cancel.reason() !== null, at);
			// An interrupted SLEEP() returns normally: the cancel, not the result, is what happened.
			const why = cancel.reason();
			return why === null ? out : { kind: "cancelled", reason: why, timing: { total: Date.now() - startedAt } };
		} catch (e) {
			const why = cancel.reason();
			if (why !== null) return { kind: "cancelled", reason: why, timing: { total: Date.now() - startedAt } };
			const err = e as MysqlError;
			const message = scrub(err.sqlMessage ?? err.message ?? String(e), config.password);
			const offset = at.text ? nearOffset(at.text, message) : undefined;
			const code = engineCode(err);
			return sqlFailed(message, startedAt, {
				...(code ? { engineCode: code } : {}),
				...(offset !== undefined ? { position: { statement: at.index, offset } } : {}),
			});
		} finally {
			cancel.dispose();
			if (cancel.reason() !== null) conn.destroy();
			else conn.release();
		}
	};

	const one = async (conn: MysqlPromise.PoolConnection, s: BoundStatement, i: number, at: Cursor): Promise<[unknown, Field[] | undefined]> => {
		at.index = i;
		at.text = s.text;
		// Parameters go to the server separately (prepared statement); no parameters: plain text protocol.
		const [result, fields] = s.params.length > 0 ? await conn.execute({ sql: s.text, values: s.params, rowsAsArray: true }) : await conn.query({ sql: s.text, rowsAsArray: true });
		return [result, fields as Field[] | undefined];
	};

	const run = (statements: readonly BoundStatement[], opts: QueryOptions): Promise<QueryOutcome> => {
		const startedAt = Date.now();
		return withConnection(opts, async (conn, stopped, at) => {
			const summaries: StatementSummary[] = [];
			let last: { columns: DbColumn[]; rows: DbRow[]; rowCount: number; truncated: boolean } = { columns: [], rows: [], rowCount: 0, truncated: false };
			for (let i = 0; i < statements.length; i++) {
				if (stopped()) break;
				const [result, fields] = await one(conn, statements[i], i, at);
				if (Array.isArray(result) && fields) {
					const columns = fields.map((f) => ({ name: f.name, type: typeName(f) }));
					const rows = (result as unknown[][]).map((r) => fields.map((f, k) => valueOf(r[k], f)));
					last = { columns, ...rowsOf(columns, rows, opts.maxRows) };
					summaries.push({ kind: statements[i].kind, rowCount: result.length });
				} else {
					summaries.push({ kind: statements[i].kind, rowCount: (result as { affectedRows?: number }).affectedRows ?? null });
				}
			}
			return { kind: "done", ...last, statements: summaries, timing: { total: Date.now() - startedAt } } satisfies QueryOutcome;
		});
	};

	return {
		dialect: "mysql",
		run,
		explain: async (statement, opts): Promise<ExplainOutcome> => {
			const startedAt = Date.now();
			const out = await withConnection(opts, async (conn, _stopped, at) => {
				const [rows] = await one(conn, { ...statement, text: `EXPLAIN FORMAT=JSON ${statement.text}` }, 0, at);
				const cell = (rows as unknown[][])[0]?.[0];
				const text = typeof cell === "string" ? cell : "{}";
				const json = JSON.parse(text) as Record<string, unknown>;
				return { kind: "done", plan: [jsonPlanNode("query", json)], raw: JSON.stringify(json, null, 2), timing: { total: Date.now() - startedAt } } satisfies ExplainOutcome;
			});
			return out as ExplainOutcome;
		},
		schema: async (): Promise<SchemaOutcome> => {
			const startedAt = Date.now();
			const out = await withConnection({ timeoutMs: 30000, maxRows: Infinity }, async (conn) => {
				const [rows] = await conn.query({ sql: SCHEMA_SQL, rowsAsArray: false });
				const tables = new Map<string, SchemaTable>();
				for (const r of rows as Array<Record<string, string | null>>) {
					const name = String(r.table_name);
					let t = tables.get(name);
					if (!t) tables.set(name, (t = { name, schema: String(r.table_schema), kind: String(r.table_type).includes("VIEW") ? "view" : "table", columns: [] }));
					t.columns.push({ name: String(r.column_name), type: String(r.column_type), nullable: r.is_nullable === "YES", primaryKey: r.column_key === "PRI", ...(r.ref ? { references: r.ref } : {}) });
				}
				return { kind: "done", tables: [...tables.values()], timing: { total: Date.now() - startedAt } } satisfies SchemaOutcome;
			});
			return out.kind === "cancelled" ? (sqlFailed("", startedAt, { detail: "schema query cancelled" }) as SchemaOutcome) : (out as SchemaOutcome);
		},
		close: () => pool.end().catch(() => undefined),
	};
}

/** MySQL/MariaDB JSON plans differ by version: nodes are the objects, with rows and cost where either names them. */
function jsonPlanNode(key: string, value: unknown): PlanNode {
	const obj = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
	const children: PlanNode[] = [];
	const facts: string[] = [];
	for (const [k, v] of Object.entries(obj)) {
		if (Array.isArray(v) && v.some((x) => typeof x === "object" && x !== null)) v.forEach((x, i) => children.push(jsonPlanNode(`${k}[${i}]`, x)));
		else if (typeof v === "object" && v !== null && !Array.isArray(v) && k !== "cost_info") children.push(jsonPlanNode(k, v));
		else if (k !== "cost_info" && k !== "table_name" && k !== "access_type") facts.push(`${k}: ${Array.isArray(v) ? v.join(", ") : String(v)}`);
	}
	const num = (v: unknown) => (v === undefined || v === null || v === "" || Number.isNaN(Number(v)) ? undefined : Number(v));
	const costInfo = (obj.cost_info ?? {}) as Record<string, unknown>;
	const cost = num(obj.cost) ?? num(costInfo.query_cost) ?? num(costInfo.prefix_cost) ?? num(obj.query_cost);
	const rows = num(obj.rows) ?? num(obj.rows_examined_per_scan);
	const label = typeof obj.table_name === "string" ? `${typeof obj.access_type === "string" ? obj.access_type : "scan"} on ${obj.table_name}` : key;
	return { label, ...(cost !== undefined ? { cost } : {}), ...(rows !== undefined ? { rows } : {}), ...(facts.length ? { detail: facts.join("; ") } : {}), children };
}

const SCHEMA_SQL = `
SELECT c.TABLE_SCHEMA AS table_schema, c.TABLE_NAME AS table_name, t.TABLE_TYPE AS table_type, c.COLUMN_NAME AS column_name,
  c.COLUMN_TYPE AS column_type, c.IS_NULLABLE AS is_nullable, c.COLUMN_KEY AS column_key,
  (SELECT CONCAT(k.REFERENCED_TABLE_NAME, '.', k.REFERENCED_COLUMN_NAME) FROM information_schema.KEY_COLUMN_USAGE k
    WHERE k.TABLE_SCHEMA = c.TABLE_SCHEMA AND k.TABLE_NAME = c.TABLE_NAME AND k.COLUMN_NAME = c.COLUMN_NAME AND k.REFERENCED_TABLE_NAME IS NOT NULL LIMIT 1) AS ref
FROM information_schema.COLUMNS c
JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
WHERE c.TABLE_SCHEMA = DATABASE()
ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`;
