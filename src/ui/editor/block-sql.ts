import type { EditorState } from "@codemirror/state";
import type { DbNoteBlock, SqlDialect } from "../../blocks";
import { connectionOf } from "../../runner/db/connection-of";
import type { SchemaCache } from "../../runner/db/schema-cache";
import type { Connection } from "../../settings/connections";
import { blocksOf } from "./note-blocks";

/** What the SQL editor needs from the plugin: the configured connections and their schemas. */
export interface SqlAssistPort {
	connections(): Readonly<Record<string, Connection>>;
	schemas: SchemaCache;
}

/** A db block's SQL as the assist reads it: the content lines without their container prefix, and the way back to document offsets. */
export interface BlockSql {
	block: DbNoteBlock;
	sql: string;
	toDoc(offset: number): number;
}

export function blockSql(block: DbNoteBlock): BlockSql {
	const { contentLines, contentOffsets } = block.fence;
	const starts: number[] = [];
	let at = 0;
	for (const line of contentLines) {
		starts.push(at);
		at += line.length + 1;
	}
	return {
		block,
		sql: contentLines.join("\n"),
		toDoc: (offset) => {
			let i = starts.length - 1;
			while (i > 0 && starts[i] > offset) i--;
			return contentOffsets[i] + Math.min(offset - starts[i], contentLines[i].length);
		},
	};
}

/** The db block whose SQL holds document position `pos`, and `pos` as an offset in that SQL. */
export function sqlAt(state: EditorState, pos: number): { at: BlockSql; offset: number } | null {
	for (const block of blocksOf(state)) {
		if (block.kind !== "db" || pos < block.fence.from || pos > block.fence.to) continue;
		const { contentLines, contentOffsets } = block.fence;
		let start = 0;
		for (let i = 0; i < contentLines.length; i++) {
			const from = contentOffsets[i];
			if (pos >= from && pos <= from + contentLines[i].length) return { at: blockSql(block), offset: start + pos - from };
			start += contentLines[i].length + 1;
		}
		return null;
	}
	return null;
}

/** The block's connection name and dialect, when one is configured for it. */
export function connectionFor(port: SqlAssistPort, block: DbNoteBlock): { name: string; dialect: SqlDialect } | null {
	const found = connectionOf(block, port.connections());
	return found.ok ? { name: found.name, dialect: found.connection.type } : null;
}
