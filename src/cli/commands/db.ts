import { join } from "node:path";
import type { SchemaTable } from "../../runner/db/driver";
import { DbDrivers } from "../../runner/db/connect";
import { withBuiltInConnections } from "../../settings/connections";
import { cliDbModules } from "../db-modules";
import { cliHistory } from "../engine-ports";
import { EXIT, UsageError } from "../usage";
import { findVault, loadSettings } from "../vault";

type Write = (s: string) => void;

/** One table as text: `table books` then `  id  integer  not null  primary key`. */
export function schemaText(tables: readonly SchemaTable[]): string {
	const lines: string[] = [];
	for (const t of tables) {
		lines.push(`${t.kind} ${t.schema && t.schema !== "public" ? `${t.schema}.` : ""}${t.name}`);
		const w = Math.max(...t.columns.map((c) => c.name.length));
		const tw = Math.max(...t.columns.map((c) => c.type.length));
		for (const c of t.columns) {
			const facts = [c.nullable ? "" : "not null", c.primaryKey ? "primary key" : "", c.references ? `→ ${c.references}` : ""].filter(Boolean).join(", ");
			lines.push(`  ${c.name.padEnd(w)}  ${c.type.padEnd(tw)}  ${facts}`.trimEnd());
		}
	}
	return lines.join("\n");
}

/**
 * `runnable-blocks db schema <connection>`: the connection's tables and views with their columns,
 * types, nullability and keys. The vault is the one around the current folder (or `--config`).
 */
export async function dbCommand(args: { sub: string | undefined; connection: string | undefined; json: boolean; config?: string; cwd: string }, out: Write, err: Write): Promise<number> {
	if (args.sub !== "schema" || !args.connection) throw new UsageError("db takes a subcommand: runnable-blocks db schema <connection> [--json] [--config user.toml]");
	// findVault takes a note path: any name inside the folder starts the search there.
	const vault = findVault(join(args.cwd, "_"), args.config);
	const settings = loadSettings(vault.configPath, err);
	const connections = withBuiltInConnections(settings.connections);
	const connection = connections[args.connection];
	const names = Object.keys(connections);
	if (!connection) throw new UsageError(`no connection "${args.connection}" (defined: ${names.join(", ")})${vault.configPath ? "" : " (no user.toml found: run inside a vault or pass --config)"}`);
	const history = vault.historyPath ? cliHistory(vault.historyPath, err) : null;
	const drivers = new DbDrivers(cliDbModules(vault.root ?? args.cwd, history));
	try {
		const got = drivers.get(args.connection, connection);
		if (!got.ok) {
			err(`${got.message}${got.detail ? ` (${got.detail})` : ""}\n`);
			return EXIT.failed;
		}
		const s = await got.driver.schema();
		if (s.kind !== "done") {
			err(`${s.message}${s.detail ? ` (${s.detail})` : ""}\n`);
			return EXIT.failed;
		}
		out(args.json ? `${JSON.stringify(s.tables, null, 2)}\n` : `${schemaText(s.tables)}\n`);
		return EXIT.ok;
	} finally {
		await drivers.closeAll();
		await history?.close();
	}
}
