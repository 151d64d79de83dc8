/**
 * bench/db — a 100,000-row SELECT through the CLI against the engines' own clients, on the
 * same data in the same run:
 *  - SQLite: `runnable-blocks run note.md --json` (sql.js) vs `sqlite3 file "SELECT …"`;
 *  - PostgreSQL (a throwaway cluster on 127.0.0.1, tests/support/db-servers.ts):
 *    `runnable-blocks run note.md --json` (pg) vs `psql -c "SELECT …"`.
 * Every command is a fresh process with stdout to /dev/null; wall time is the median of
 * `runs`, peak RSS (GNU time's %M) the median too. Prints the ratios CLI / baseline.
 * Usage: node bench/run.mjs db [runs]   (after npm run build: it runs dist/cli.js)
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "pg";
import { loadSqlJs } from "../../src/runner/sqljs";
import { DB_NAME, DB_PASSWORD, DB_USER, startPostgres } from "../../tests/support/db-servers";

const ROOT = resolve(__dirname, "..", "..");
const CLI = join(ROOT, "dist", "cli.js");
const ROWS = 100_000;
const RUNS = Number(process.argv[2] ?? 5);
const SELECT = "SELECT id, name, price, created, note FROM items ORDER BY id";

interface Sample {
	ms: number;
	rssMb: number;
}

/** One fresh process under GNU time: wall milliseconds and its peak RSS. */
function once(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Sample> {
	return new Promise((done, fail) => {
		const t0 = process.hrtime.bigint();
		const child = spawn("/usr/bin/time", ["-f", "RB_MAXRSS %M", cmd, ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
		let err = "";
		child.stderr.on("data", (d: Buffer) => (err += d.toString()));
		child.on("error", fail);
		child.on("exit", (code) => {
			const ms = Number(process.hrtime.bigint() - t0) / 1e6;
			const rss = /RB_MAXRSS (\d+)/.exec(err);
			if (code !== 0 || !rss) return fail(new Error(`${cmd} exited ${code}: ${err}`));
			done({ ms, rssMb: Number(rss[1]) / 1024 });
		});
	});
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs the two commands alternately (so load drifts hit both), `RUNS` times each after one warm-up. */
async function compare(label: string, ours: () => Promise<Sample>, theirs: () => Promise<Sample>, theirName: string): Promise<void> {
	await ours();
	await theirs();
	const a: Sample[] = [];
	const b: Sample[] = [];
	for (let i = 0; i < RUNS; i++) {
		a.push(await ours());
		b.push(await theirs());
	}
	const [am, bm] = [median(a.map((s) => s.ms)), median(b.map((s) => s.ms))];
	const [ar, br] = [median(a.map((s) => s.rssMb)), median(b.map((s) => s.rssMb))];
	console.log(`${label}: CLI ${am.toFixed(0)} ms / ${ar.toFixed(0)} MB RSS, ${theirName} ${bm.toFixed(0)} ms / ${br.toFixed(0)} MB RSS — time ratio ${(am / bm).toFixed(1)}×, RSS ratio ${(ar / br).toFixed(1)}× (median of ${RUNS})`);
}

async function main(): Promise<void> {
	if (!existsSync(CLI)) throw new Error("dist/cli.js is missing: run npm run build first");
	const vault = mkdtempSync(join(tmpdir(), "rb-bench-db-"));
	const stopAll: Array<() => Promise<void>> = [() => Promise.resolve(rmSync(vault, { recursive: true, force: true }))];
	try {
		// The same 100,000 rows in both engines: integer, text, exact decimal, date text, some NULLs.
		const SQL = await loadSqlJs();
		const db = new SQL.Database();
		db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price NUMERIC, created TEXT, note TEXT)");
		db.exec("BEGIN");
		const insert = db.prepare("INSERT INTO items VALUES (?, ?, ?, ?, ?)");
		for (let i = 1; i <= ROWS; i++) insert.run([i, `item ${i}`, (i % 1000) / 100 + 1, `2026-01-${String((i % 28) + 1).padStart(2, "0")}`, i % 7 === 0 ? null : `note ${i % 97}`]);
		insert.free();
		db.exec("COMMIT");
		mkdirSync(join(vault, "data"));
		const sqliteFile = join(vault, "data", "items.sqlite");
		writeFileSync(sqliteFile, db.export());
		db.close();

		const pg = await startPostgres();
		stopAll.push(() => pg.stop());
		const client = new Client({ host: pg.host, port: pg.port, user: DB_USER, password: DB_PASSWORD, database: DB_NAME });
		await client.connect();
		await client.query("CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, price numeric, created date, note text)");
		await client.query(`INSERT INTO items SELECT i, 'item ' || i, (i % 1000) / 100.0 + 1, date '2026-01-01' + (i % 28), CASE WHEN i % 7 = 0 THEN NULL ELSE 'note ' || (i % 97) END FROM generate_series(1, ${ROWS}) i`);
		await client.end();

		const pluginDir = join(vault, ".obsidian", "plugins", "runnable-blocks");
		mkdirSync(pluginDir, { recursive: true });
		writeFileSync(
			join(pluginDir, "user.toml"),
			[
				"[connections.items]",
				'type = "sqlite"',
				'path = "data/items.sqlite"',
				`max_rows = ${ROWS}`,
				"",
				"[connections.pg]",
				'type = "postgres"',
				`host = "${pg.host}"`,
				`port = ${pg.port}`,
				`database = "${DB_NAME}"`,
				`user = "${DB_USER}"`,
				'password = { secret = "bench-pg" }',
				`max_rows = ${ROWS}`,
				"",
			].join("\n"),
		);
		writeFileSync(join(vault, "sqlite.md"), `\`\`\`db connection=items\n${SELECT};\n\`\`\`\n`);
		writeFileSync(join(vault, "pg.md"), `\`\`\`db connection=pg\n${SELECT};\n\`\`\`\n`);
		const secret = { RUNNABLE_BLOCKS_SECRET_BENCH_PG: DB_PASSWORD };

		console.log(`bench/db: ${ROWS.toLocaleString("en")} rows (id, name, price, created, note), stdout to /dev/null, fresh process per run`);
		await compare("SQLite", () => once(process.execPath, [CLI, "run", join(vault, "sqlite.md"), "--json"]), () => once("sqlite3", [sqliteFile, SELECT]), "sqlite3");
		await compare(
			"PostgreSQL",
			() => once(process.execPath, [CLI, "run", join(vault, "pg.md"), "--json"], secret),
			() => once("psql", ["-h", pg.host, "-p", String(pg.port), "-U", DB_USER, "-d", DB_NAME, "-c", SELECT], { PGPASSWORD: DB_PASSWORD }),
			"psql",
		);
	} finally {
		for (const stop of stopAll.reverse()) await stop();
	}
}

void main().catch((e: unknown) => {
	console.error(e instanceof Error ? e.message : e);
	process.exit(1);
});
