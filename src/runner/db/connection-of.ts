import type { DbNoteBlock } from "../../blocks";
import type { Connection } from "../../settings/connections";
import type { RunError } from "../result";
import { dbFailureText } from "./failures";

/**
 * Which connection a block names: its `connection=`, else the only one configured. Built-in
 * connections (`history`) are there only when named: they never make a vault's one connection
 * ambiguous.
 */
export function connectionOf(block: DbNoteBlock, connections: Readonly<Record<string, Connection>>): { ok: true; name: string; connection: Connection } | { ok: false; error: RunError } {
	const names = Object.keys(connections);
	const configured = names.filter((n) => !isBuiltIn(connections[n]));
	const name = block.info.tokens.connection ?? (configured.length === 1 ? configured[0] : undefined);
	if (name === undefined) {
		return { ok: false, error: { code: "unknown_connection", message: dbFailureText("unknown_connection", undefined, configured) } };
	}
	const connection = connections[name];
	if (!connection) return { ok: false, error: { code: "unknown_connection", message: dbFailureText("unknown_connection", name, names) } };
	return { ok: true, name, connection };
}

const isBuiltIn = (c: Connection | undefined) => c?.type === "sqlite" && c.builtIn !== undefined;
