/**
 * What a block says about its place in a parallel "Run all" (docs/blocks.md, "Running blocks in
 * parallel"): the blocks it must run after (`# @after`), and whether it may change what the
 * server holds, in which case it keeps its place in the note.
 */
import { splitStatements } from "./db-sql";
import type { HttpBlock } from "./http";
import type { HttpMethod } from "./methods";
import type { NoteBlock } from "./note";

/** `# @after login` / `// @after login, setup`: a comment line of the block's head. */
const AFTER = /^[ \t]*(?:#|\/\/)[ \t]*@after(?:[ \t]+(.*))?$/;

/**
 * Methods that change nothing on the server (RFC 9110 §9.2.1 safe methods, and WebDAV's
 * read-only PROPFIND, REPORT and SEARCH): such blocks run side by side. GRAPHQL is a POST.
 */
const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set<HttpMethod>(["GET", "HEAD", "OPTIONS", "TRACE", "PROPFIND", "REPORT", "SEARCH"]);

/** The http message of a block's head, whatever its kind (a stream's handshake is read as an http GET). */
export function headOf(block: NoteBlock): HttpBlock | null {
	switch (block.kind) {
		case "http":
			return block.http;
		case "sse":
			return block.sse.request;
		case "websocket":
			return block.websocket.request;
		default:
			return null;
	}
}

/** The aliases a block's `# @after` lines name, in order, each once (a comma or a space separates them). */
export function afterAliases(block: NoteBlock): string[] {
	const head = headOf(block);
	if (!head) return [];
	const names = new Set<string>();
	for (const line of head.lines) {
		if (line.kind !== "comment") continue;
		const m = AFTER.exec(line.text);
		if (!m) continue;
		for (const name of (m[1] ?? "").split(/[\s,]+/)) if (name !== "") names.add(name);
	}
	return [...names];
}

/**
 * Whether running the block may change what the server holds: an http method other than the safe
 * ones, a WebSocket (its messages can do anything), a db statement other than a read. Such a block
 * keeps its place in a parallel run: the blocks above it finish first, the blocks below wait for it.
 * A block that cannot run (no method) changes nothing.
 */
export function changesState(block: NoteBlock): boolean {
	switch (block.kind) {
		case "http":
			return block.http.method !== null && !SAFE_METHODS.has(block.http.method);
		case "sse":
			return false;
		case "websocket":
			return true;
		case "db":
			return splitStatements(block.db.sql, "sqlite").some((s) => s.kind !== "select" && s.kind !== "explain");
		default:
			return false;
	}
}
