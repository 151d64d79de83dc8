import { blockKey, type NoteBlock } from "../../blocks";
import type { Engine } from "../../runner/engine";
import type { DbRunRequest } from "../../runner/db/db-result";
import { connectionOf } from "../../runner/db/connection-of";
import { DEFAULT_MAX_ROWS, type Connection } from "../../settings/connections";
import { currentBlock } from "../block-actions";
import type { Notes } from "../notes";
import { notify } from "../notify";
import { t } from "../strings";
import type { DbPanelActions } from "./db-panel";

/**
 * A db panel's actions for one block. Each re-reads the note, so an edited block runs as it
 * is now; load more and EXPLAIN are runs of the engine with a db request.
 */
export function dbPanelActions(runtime: Engine, notes: Notes, connections: () => Readonly<Record<string, Connection>>, filePath: string, rendered: NoteBlock): DbPanelActions {
	const key = blockKey(rendered);
	const runNow = (db?: DbRunRequest) =>
		void notes.blocks(filePath).then(async (blocks) => {
			const { note, block } = currentBlock(blocks, key);
			if (!block) return notify(t("blockGone", { key, path: filePath }));
			await runtime.run(filePath, note, [block], db ? { kindOptions: { db } } : {});
		});
	return {
		run: () => runNow(),
		cancel: () => void runtime.sessions.note(filePath).cancel(key),
		explain: (analyze) => runNow({ explain: { analyze } }),
		loadMore: (shown) => runNow({ maxRows: shown + pageSize(rendered, connections()) }),
		pageSize: () => pageSize(rendered, connections()),
	};
}

/** Rows a "load more" adds: the block's connection's max_rows. */
function pageSize(block: NoteBlock, connections: Readonly<Record<string, Connection>>): number {
	if (block.kind !== "db") return DEFAULT_MAX_ROWS;
	const found = connectionOf(block, connections);
	return (found.ok ? found.connection.maxRows : undefined) ?? DEFAULT_MAX_ROWS;
}
