/**
 * Runs a stream block (sse, websocket) the way the engine hands it to its kind's runner: the
 * block's prepare context from its note, the deps the spec gives, and everything the runner
 * reports kept for the spec: every snapshot (`onUpdate`) and every history row.
 */
import { parseNote, type NoteBlock } from "../../src/blocks";
import { prepareContext } from "../../src/runner/block-runners";
import type { ExecuteOptions, ExecutorDeps, HistoryEntry } from "../../src/runner/executor";
import type { BlockRunContext } from "../../src/runner/kind-runner";
import type { RunSnapshot } from "../../src/runner/result";
import { isStreamRun, type StreamRun } from "../../src/runner/stream/stream-run";

export interface StreamHarness<B extends NoteBlock> {
	block: B;
	ctx: BlockRunContext;
	rows: HistoryEntry[];
	snapshots: RunSnapshot[];
	/** The latest snapshot, as a stream's run (undefined before the first). */
	latest(): StreamRun | undefined;
}

/** The first block of `markdown` (a note of one stream block, maybe with others it refers to) with its context. */
export function streamHarness<B extends NoteBlock>(
	markdown: string,
	deps: Omit<ExecutorDeps, "cacheKey">,
	options: { env?: Record<string, string>; execute?: Partial<Omit<ExecuteOptions, "envSnapshot" | "onUpdate">>; defaultTimeoutMs?: number } = {},
): StreamHarness<B> {
	const note = parseNote(markdown);
	const block = note[0] as B;
	const rows: HistoryEntry[] = [];
	const snapshots: RunSnapshot[] = [];
	const ctx: BlockRunContext = {
		prepare: prepareContext(note, block, { env: options.env ?? {}, results: new Map(), defaultTimeoutMs: options.defaultTimeoutMs }),
		deps: { cacheKey: () => "", history: { record: (e) => rows.push(e) }, ...deps },
		execute: { filePath: "streams.md", historyAlias: block.alias ?? "#L1", onUpdate: (s) => snapshots.push(s), ...options.execute },
	};
	return {
		block,
		ctx,
		rows,
		snapshots,
		latest: () => {
			const s = snapshots.at(-1);
			return s && isStreamRun(s) ? s : undefined;
		},
	};
}
