import type { DbNoteBlock } from "../../blocks";
import type { Connection } from "../../settings/connections";
import type { RunError } from "../result";
import { dbFailureText } from "./failures";

/** Which connection a block names: its `connection=`, else the only one configured. */
export function connectionOf(block: DbNoteBlock, connections: Readonly<Record<string, Connection>>): { ok: true; name: string; connection: Connection } | { ok: false; error: RunError } {
	const names = Object.keys(connections);
	const name = block.info.tokens.connection ?? (names.length === 1 ? names[0] : undefined);
	if (name === undefined) {
		return { ok: false, error: { code: "unknown_connection", message: dbFailureText("unknown_connection", undefined, names) } };
	}
	const connection = connections[name];
	if (!connection) return { ok: false, error: { code: "unknown_connection", message: dbFailureText("unknown_connection", name, names) } };
	return { ok: true, name, connection };
}
