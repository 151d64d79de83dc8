import type { NoteBlock } from "../blocks";
import { formatBytes, formatMs } from "../runner/response/format";
import { shownRequest } from "../runner/request";
import type { BlockResult, RunSnapshot } from "../runner/result";

type Write = (s: string) => void;

/** Marks per final state, readable without colour. */
const MARK: Record<BlockResult["state"], string> = { done: "✓", cached: "✓", cancelled: "⊘", failed: "✗" };

function label(block: NoteBlock): string {
	return block.alias ?? `line ${block.fence.startLine + 1}`;
}

/** One line per finished block: what ran and how it ended. */
export function describeResult(block: NoteBlock, result: BlockResult): string {
	const req = result.request;
	const what = req ? `${req.method} ${shownRequest(req).url}` : (block.http?.method ?? "?") + " " + (block.http?.url ?? "");
	const parts = [`${MARK[result.state]} ${label(block)}`, what];
	if (result.head) parts.push(`→ ${result.head.status} ${result.head.statusText}`.trimEnd());
	if (result.state === "cached") parts.push("(cached)");
	if (result.timing && result.state !== "cached") parts.push(formatMs(result.timing.total));
	if (result.body) parts.push(formatBytes(result.body.byteLength));
	if (result.error) parts.push(`${result.error.message}${result.error.detail ? ` (${result.error.detail})` : ""}`);
	return parts.join("  ");
}

/**
 * Human output of `run`: on a terminal, a live progress line (block n/N, bytes received) on
 * stderr; piped, just one line per block. With --json the caller prints JSON instead.
 */
export class Reporter {
	private n = 0;
	private lastProgress = 0;
	private progressShown = false;

	constructor(
		private readonly out: Write,
		private readonly err: Write,
		private readonly tty: boolean,
		private readonly total: number,
		private readonly now: () => number = Date.now,
	) {}

	start(block: NoteBlock): void {
		this.n++;
		if (this.tty) this.showProgress(`[${this.n}/${this.total}] ${label(block)} …`);
	}

	progress(block: NoteBlock, s: RunSnapshot): void {
		if (!this.tty || this.now() - this.lastProgress < 100) return;
		this.lastProgress = this.now();
		const phase = s.state === "streaming" ? `receiving ${formatBytes(s.receivedBytes)}` : s.state;
		this.showProgress(`[${this.n}/${this.total}] ${label(block)} ${phase}`);
	}

	done(block: NoteBlock, result: BlockResult): void {
		this.clearProgress();
		this.out(`${describeResult(block, result)}\n`);
	}

	summary(results: BlockResult[]): void {
		this.clearProgress();
		const count = (s: BlockResult["state"]) => results.filter((r) => r.state === s).length;
		this.out(`\n${results.length} blocks: ${count("done")} done, ${count("cached")} cached, ${count("cancelled")} cancelled, ${count("failed")} failed\n`);
	}

	private showProgress(text: string): void {
		this.err(`\r\x1b[2K${text}`);
		this.progressShown = true;
	}

	private clearProgress(): void {
		if (!this.progressShown) return;
		this.err("\r\x1b[2K");
		this.progressShown = false;
	}
}
