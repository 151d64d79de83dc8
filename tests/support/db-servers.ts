/**
 * Throwaway database servers for the db integration tests, from the Debian packages that
 * scripts/install-system-deps.sh installs: a PostgreSQL cluster (initdb + postgres) and a
 * MariaDB instance (mariadb-install-db + mariadbd), each in its own temp directory, on a free
 * 127.0.0.1 port with its unix socket inside that directory, stopped and removed by `stop()`.
 * Both ask for a password over TCP, so the wrong-password case is real.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as mysql from "mysql2/promise";
import { Client } from "pg";
import { refusedPort } from "./servers";

export interface DbServer {
	host: "127.0.0.1";
	port: number;
	user: string;
	password: string;
	database: string;
	/** The server's log so far (for a failing test's message). */
	log(): string;
	stop(): Promise<void>;
}

export const DB_USER = "rb";
export const DB_PASSWORD = "s3cret-pw-7d1f";
export const DB_NAME = "rbtest";

/** PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user. */
function asPostgres(): { uid?: number; gid?: number } {
	if (process.getuid?.() !== 0) return {};
	const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
	const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
	return { uid, gid };
}

function pgBin(name: string): string {
	const root = "/usr/lib/postgresql";
	const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
	for (const v of versions) {
		const p = path.join(root, v, "bin", name);
		if (existsSync(p)) return p;
	}
	throw new Error(`PostgreSQL's ${name} not found under ${root}: run scripts/install-system-deps.sh`);
}

function run(cmd: string, args: string[], opts: { uid?: number; gid?: number; cwd?: string } = {}): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
		let out = "";
		child.stdout.on("data", (d: Buffer) => (out += d.toString()));
		child.stderr.on("data", (d: Buffer) => (out += d.toString()));
		child.on("error", reject);
		child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(cmd)} exited ${code}: ${out}`))));
	});
}

function exited(child: ChildProcess): Promise<void> {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		child.once("exit", () => resolve());
	});
}

/** Polls `probe` until it succeeds, the child exits, or `ms` pass. */
/** Stops a throwaway server with `signal`, kills it if it outlives `graceMs`, and removes its folder. */
function stopper(child: ChildProcess, signal: NodeJS.Signals, graceMs: number, dir: string): () => Promise<void> {
	return async () => {
		child.kill(signal);
		const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
		await exited(child);
		clearTimeout(killer);
		rmSync(dir, { recursive: true, force: true });
	};
}

async function waitReady(what: string, child: ChildProcess, log: () => string, probe: () => Promise<void>, ms = 45000): Promise<void> {
	const deadline = Date.now() + ms;
	let last: unknown;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}): ${log()}`);
		try {
			await probe();
			return;
		} catch (e) {
			last = e;
			await new Promise((r) => setTimeout(r, 100));
		}
	}
	child.kill("SIGKILL");
	throw new Error(`${what} did not start within ${ms} ms (${String(last)}): ${log()}`);
}

/** A PostgreSQL cluster with password (scram) auth for `rb`, database `rbtest`. */
export async function startPostgres(): Promise<DbServer> {
	const dir = mkdtempSync(path.join(os.tmpdir(), "rb-pg-"));
	const owner = asPostgres();
	const data = path.join(dir, "data");
	const pwfile = path.join(dir, "pw");
	writeFileSync(pwfile, `${DB_PASSWORD}\n`);
	if (owner.uid !== undefined) {
		chownSync(dir, owner.uid, owner.gid as number);
		chownSync(pwfile, owner.uid, owner.gid as number);
	}
	await run(pgBin("initdb"), ["-D", data, "-U", DB_USER, `--pwfile=${pwfile}`, "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"], { ...owner, cwd: dir });
	const port = await refusedPort();
	const child = spawn(
		pgBin("postgres"),
		["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "shared_buffers=16MB", "-c", "max_connections=40", "-c", "TimeZone=UTC"],
		{ ...owner, cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
	);
	let log = "";
	child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
	child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
	const connect = async (database: string) => {
		const c = new Client({ host: "127.0.0.1", port, user: DB_USER, password: DB_PASSWORD, database });
		await c.connect();
		return c;
	};
	await waitReady("postgres", child, () => log, async () => {
		const c = await connect("postgres");
		await c.end();
	});
	const admin = await connect("postgres");
	await admin.query(`CREATE DATABASE ${DB_NAME}`);
	await admin.end();
	return {
		host: "127.0.0.1",
		port,
		user: DB_USER,
		password: DB_PASSWORD,
		database: DB_NAME,
		log: () => log,
		// Fast shutdown: disconnects clients, no waiting for them.
		stop: stopper(child, "SIGINT", 10_000, dir),
	};
}

/** A MariaDB instance with user `rb`@`%` (password) and database `rbtest`. */
export async function startMariadb(): Promise<DbServer> {
	const dir = mkdtempSync(path.join(os.tmpdir(), "rb-maria-"));
	const data = path.join(dir, "data");
	const socket = path.join(dir, "mysqld.sock");
	const user = process.getuid?.() === 0 ? ["--user=root"] : [];
	await run("mariadb-install-db", ["--no-defaults", `--datadir=${data}`, ...user, "--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve", "--innodb-buffer-pool-size=16M"], { cwd: dir });
	const port = await refusedPort();
	const child = spawn(
		"mariadbd",
		[
			"--no-defaults",
			`--datadir=${data}`,
			`--socket=${socket}`,
			`--port=${port}`,
			"--bind-address=127.0.0.1",
			`--pid-file=${path.join(dir, "mariadbd.pid")}`,
			...user,
			"--skip-name-resolve",
			"--skip-log-bin",
			"--innodb-buffer-pool-size=16M",
			"--innodb-flush-log-at-trx-commit=0",
			"--performance-schema=OFF",
			"--max-connections=40",
		],
		{ cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
	);
	let log = "";
	child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
	child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
	// root has no password over the unix socket (install-db's "normal" authentication).
	const rootConnect = () => mysql.createConnection({ socketPath: socket, user: "root" });
	await waitReady("mariadbd", child, () => log, async () => {
		const c = await rootConnect();
		await c.end();
	});
	const root = await rootConnect();
	await root.query(`CREATE DATABASE ${DB_NAME}`);
	await root.query(`CREATE USER '${DB_USER}'@'%' IDENTIFIED BY '${DB_PASSWORD}'`);
	await root.query(`GRANT ALL ON *.* TO '${DB_USER}'@'%'`);
	await root.end();
	return {
		host: "127.0.0.1",
		port,
		user: DB_USER,
		password: DB_PASSWORD,
		database: DB_NAME,
		log: () => log,
		stop: stopper(child, "SIGTERM", 15_000, dir),
	};
}
