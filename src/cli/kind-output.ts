import type { NoteBlock } from "../blocks";
import type { HttpView } from "../runner/http/http-run";
import type { BlockResult, RunSnapshot } from "../runner/result";

/** Prints a run's progress as it comes, per block (a stream's messages on a terminal). */
export interface LiveOutput {
	update(block: NoteBlock, snapshot: RunSnapshot): void;
}

/**
 * How the CLI shows one kind's run where it differs from an http block's: the line, `--json`,
 * the report. `src/cli/kind-outputs.ts` lists them, one line per kind; a kind without one is
 * shown as an http run (its common fields).
 */
export interface KindOutput {
	/** The run as an http exchange: its request, response head, body and assertions (a stream's handshake). */
	exchange(run: RunSnapshot): HttpView;
	/** What ran, after the block's label (`SSE https://…`); null: the request line as http writes it. */
	what?(block: NoteBlock, result: BlockResult): string | null;
	/** What the block's line adds after its status and size (a stream's close and counts). */
	more?(result: BlockResult): string[];
	/** The kind's fields of the block's `--json`. */
	json?(result: BlockResult): Record<string, unknown>;
	/** Prints its runs' progress on a rich terminal. */
	live?(write: (line: string) => void): LiveOutput;
}
