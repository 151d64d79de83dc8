import { dbSummary, dbTable } from "./db-output";
import type { NoteBlock, ProblemCode } from "../blocks";
import { decodeText } from "../runner/response/charset";
import { classifyBody } from "../runner/response/content-type";
import { formatAge, formatBytes, formatMs } from "../runner/response/format";
import { JsonPrettifier } from "../runner/response/pretty-json";
import { shownRequest } from "../runner/request";
import { httpFields } from "../runner/http/http-run";
import type { BlockResult, RunError, RunSnapshot } from "../runner/result";
import type { PollProgress } from "../runner/poll";
import type { LiveOutput } from "./kind-output";
import { assertionsOf, exchangeOf, outputOf } from "./kind-outputs";
import { PLAIN, type Terminal } from "./terminal";

type Write = (s: string) => void;

/** Marks per final state, readable without colour. */
const MARK: Record<BlockResult["state"], string> = { done: "✓", cached: "✓", cancelled: "⊘", failed: "✗" };

/** ANSI SGR codes; every use goes through `paint`, which writes none without colour. */
const SGR = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const;
type Style = keyof typeof SGR;

/** The preview of a body: at most this many lines, each cut to this many characters. */
const PREVIEW_LINES = 10;
const PREVIEW_WIDTH = 160;
/** Only the start of a body is decoded for the preview: a 100 MB body costs no more than a small one. */
const PREVIEW_BYTES = 16 * 1024;

function label(block: NoteBlock): string {
	return block.alias ?? `line ${block.fence.startLine + 1}`;
}

/**
 * The user-facing text of a run error: the message, then its detail. A timeout says how long it
 * waited (`Request cancelled (timeout 5000 ms)`), from the request's own timeout.
 */
export function errorText(result: BlockResult): string | null {
	const error = cliError(result);
	return error ? `${error.message}${error.detail ? ` (${error.detail})` : ""}` : null;
}

/** The run's error as the CLI reports it (JSON and text alike): a timeout's detail names the timeout. */
export function cliError(result: BlockResult): RunError | null {
	const error = result.error;
	if (!error) return null;
	const request = exchangeOf(result).request;
	if (error.code === "timeout" && !error.detail && request) return { ...error, detail: `timeout ${request.timeoutMs} ms` };
	return error;
}

/** `note.md:13:1: Invalid method "G@T": …` for every error of a block that cannot run. */
export function problemLines(file: string, block: NoteBlock): string[] {
	return block.problems.filter((p) => p.severity === "error").map((p) => `${file}:${p.line + 1}:${p.column + 1}: ${p.message}`);
}

/** True when a finished run's response is 4xx or 5xx (`--fail-on-status` turns it into a failure). */
export function isErrorStatus(result: BlockResult): boolean {
	return (result.state === "done" || result.state === "cached") && (httpFields(result).head?.status ?? 0) >= 400;
}

function statusStyle(status: number): Style {
	if (status >= 500) return "red";
	if (status >= 400) return "yellow";
	if (status >= 300) return "cyan";
	return "green";
}

/** One line per finished block: what ran and how it ended. `file` names the note in problem positions. */
export function describeResult(block: NoteBlock, result: BlockResult, terminal: Terminal = PLAIN, file?: string): string {
	const paint = painter(terminal);
	const output = outputOf(result.kind);
	// A kind shows the http exchange of its run where an http block shows its response (a stream its handshake).
	const run = exchangeOf(result);
	const req = run.request;
	const http = block.kind === "http" ? block.http : null;
	const what = output?.what?.(block, result) ?? (block.kind === "db" ? dbSummary(result, block.info.tokens.connection) : req ? `${req.method} ${shownRequest(req).url}` : (http?.method ?? http?.methodWritten ?? "?") + " " + (http?.url ?? ""));
	const markStyle: Style = result.state === "failed" ? "red" : result.state === "cancelled" ? "yellow" : isErrorStatus(result) ? statusStyle(run.head?.status ?? 0) : "green";
	const parts = [`${paint(markStyle, MARK[result.state])} ${paint("bold", label(block))}`, what];
	if (run.head) parts.push(paint(statusStyle(run.head.status), `→ ${run.head.status} ${run.head.statusText}`.trimEnd()));
	if (result.state === "cached") parts.push(paint("dim", `(cached, ${formatAge((result.startedAt ?? 0) - (run.cachedAt ?? result.startedAt ?? 0))} ago)`));
	if (result.timing && result.state !== "cached") parts.push(paint("dim", formatMs(result.timing.total)));
	if (run.body) parts.push(paint("dim", formatBytes(run.body.byteLength)));
	for (const more of output?.more?.(result) ?? []) parts.push(paint("dim", more));
	if (result.poll) parts.push(paint(result.poll.phase === "passed" ? "green" : "yellow", pollSummary(result.poll)));
	if (result.properties && !result.properties.ok) parts.push(paint("red", `properties not set: ${result.properties.message}`));
	const problems = file && result.error?.code === "invalid_block" ? problemLines(file, block) : [];
	if (problems.length > 0) parts.push(paint("red", problems[0]));
	else {
		const text = errorText(result);
		if (text) parts.push(paint(result.state === "cancelled" ? "yellow" : "red", text));
	}
	const notDone = file ? block.problems.filter((p) => NOT_DONE.has(p.code)).map((p) => `    ${paint("dim", `${file}:${p.line + 1}: ${p.message}`)}`) : [];
	return [parts.join("  "), ...problems.slice(1).map((p) => `    ${paint("red", p)}`), ...notDone].join("\n");
}

/** What the peers would do and a run does not (scripts, kulala's run and import lines): said under the block, never dropped silently (docs/blocks.md). */
const NOT_DONE: ReadonlySet<ProblemCode> = new Set<ProblemCode>(["script_not_run", "run_not_read", "import_not_read"]);

const POLL_ENDS: Record<PollProgress["phase"], string> = {
	attempting: "attempt",
	waiting: "waiting after attempt",
	passed: "poll passed on attempt",
	exhausted: "poll reached max: attempt",
	stopped: "poll stopped after attempt",
	ended: "poll ended on attempt",
};

/** `poll passed on attempt 4 of 10 (503 503 503 200)`: how a poll ended and each attempt's status. */
export function pollSummary(poll: PollProgress): string {
	return `${POLL_ENDS[poll.phase]} ${poll.attempt} of ${poll.max} (${poll.attempts.map((a) => a.status ?? a.state).join(" ")})`;
}

function painter(terminal: Terminal): (style: Style, text: string) => string {
	return (style, text) => (terminal.colour ? `\x1b[${SGR[style]}m${text}\x1b[0m` : text);
}

/** Decodes the start of a body in its encoding, cut before a sequence the cut would split. */
function decodeStart(bytes: Uint8Array, encoding: string): string {
	let end = Math.min(bytes.byteLength, PREVIEW_BYTES);
	if (end < bytes.byteLength && encoding === "utf-8") while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
	if (end < bytes.byteLength && encoding.startsWith("utf-16")) end -= end % 2;
	return decodeText(bytes.subarray(0, end), encoding);
}

/**
 * The first lines of a body, for a terminal: JSON pretty-printed, text in its charset (as the
 * panel and --json decode it), binary described. Only the first 16 KiB are read, whatever the body's size.
 */
export function bodyPreview(result: BlockResult, terminal: Terminal): string[] {
	const { body, head } = httpFields(result);
	if (!body || body.byteLength === 0 || !head) return [];
	const paint = painter(terminal);
	const sample = body.subarray(0, PREVIEW_BYTES);
	const type = classifyBody(head.headers, sample);
	if (type.kind === "image" || type.kind === "binary") return [`  ${paint("dim", `(${type.kind}${type.mime ? `, ${type.mime}` : ""}, ${formatBytes(body.byteLength)})`)}`];
	let text = decodeStart(body, type.charset);
	if (type.kind === "json") text = new JsonPrettifier().push(text);
	const lines = text.replace(/\r\n?/g, "\n").split("\n");
	const shown = lines.slice(0, PREVIEW_LINES).map((l) => `  ${paint("dim", "│")} ${l.length > PREVIEW_WIDTH ? `${l.slice(0, PREVIEW_WIDTH - 1)}…` : l}`);
	const more = lines.length > PREVIEW_LINES || body.byteLength > PREVIEW_BYTES;
	if (more) shown.push(`  ${paint("dim", `… ${formatBytes(body.byteLength)} in all`)}`);
	return shown;
}

/**
 * Human output of `run`: one line per block (with a body preview on a rich terminal), a live
 * progress line on stderr when it is a terminal, and a summary. With --json the caller prints
 * JSON instead.
 */
export class Reporter {
	private n = 0;
	private lastProgress = 0;
	/** The print order once `plan` is called, how many of it are printed, and the results waiting for their turn. */
	private order: NoteBlock[] | null = null;
	private printed = 0;
	private readonly ended = new Map<NoteBlock, BlockResult>();
	private progressShown = false;
	/** Each kind's live output (a stream's messages), made on its first block. */
	private readonly live = new Map<string, LiveOutput | null>();

	constructor(
		private readonly out: Write,
		private readonly err: Write,
		private readonly terminal: Terminal,
		private total: number,
		private readonly file: string,
		private readonly now: () => number = Date.now,
	) {}

	private liveUpdate(block: NoteBlock, snapshot: RunSnapshot): void {
		if (!this.live.has(block.kind)) {
			const made = outputOf(block.kind)?.live?.((line) => {
				this.clearProgress();
				this.out(line);
			});
			this.live.set(block.kind, made ?? null);
		}
		this.live.get(block.kind)?.update(block, snapshot);
	}

	/**
	 * The blocks of the run in the order to print them (the note's): from then on a block that
	 * finishes before those above it waits for them, so the output reads the same however many
	 * blocks ran at once. Without a plan each block prints as it ends.
	 */
	plan(blocks: readonly NoteBlock[]): void {
		this.order = [...blocks];
		this.total = blocks.length;
	}

	start(block: NoteBlock): void {
		this.n++;
		if (this.terminal.progress) this.showProgress(`[${this.n}/${this.total}] ${label(block)} …`);
	}

	progress(block: NoteBlock, s: RunSnapshot): void {
		// A stream's messages are printed as they arrive on a terminal (docs/streams.md); only the next block
		// to print shows them live, the others' come with their result line.
		if (this.terminal.rich && this.isNextToPrint(block)) this.liveUpdate(block, s);
		if (!this.terminal.progress || this.now() - this.lastProgress < 100) return;
		this.lastProgress = this.now();
		const phase = s.state === "streaming" ? `receiving ${formatBytes(httpFields(s).receivedBytes ?? 0)}` : s.state;
		this.showProgress(`[${this.n}/${this.total}] ${label(block)} ${s.poll ? `${pollSummary(s.poll)} ` : ""}${phase}`);
	}

	/** A block ended: printed now, or once every block above it in the plan has been. */
	done(block: NoteBlock, result: BlockResult): void {
		if (!this.order) return this.print(block, result);
		this.ended.set(block, result);
		while (this.printed < this.order.length) {
			const next = this.order[this.printed];
			const ended = this.ended.get(next);
			if (!ended) break;
			this.ended.delete(next);
			this.printed++;
			this.print(next, ended);
		}
	}

	/** Prints the results still waiting, in order (a run that ended early leaves blocks of the plan without one). */
	flush(): void {
		if (!this.order) return;
		for (const block of this.order.slice(this.printed)) {
			const result = this.ended.get(block);
			if (result) this.print(block, result);
		}
		this.ended.clear();
		this.printed = this.order.length;
	}

	private isNextToPrint(block: NoteBlock): boolean {
		return !this.order || this.order[this.printed] === block;
	}

	private print(block: NoteBlock, result: BlockResult): void {
		this.clearProgress();
		this.out(`${describeResult(block, result, this.terminal, this.file)}\n`);
		if (this.terminal.rich) this.liveUpdate(block, result);
		for (const a of assertionsOf(result) ?? []) {
			this.out(`  ${a.ok ? "✓" : "✗"} ${a.text}${a.ok ? "" : `  ${this.file}:${a.line}: ${a.message ?? "failed"}`}\n`);
		}
		if (this.terminal.rich) for (const line of bodyPreview(result, this.terminal)) this.out(`${line}\n`);
		if (this.terminal.rich && result.kind === "db" && result.db) for (const line of dbTable(result.db.columns, result.db.rows)) this.out(`  │ ${line}\n`);
	}

	summary(results: BlockResult[]): void {
		this.clearProgress();
		const count = (s: BlockResult["state"]) => results.filter((r) => r.state === s).length;
		const skipped = results.filter((r) => r.error?.code === "dependency_failed").length;
		const invalid = results.filter((r) => r.error?.code === "invalid_block").length;
		const extra = [invalid ? `, ${invalid} invalid` : "", skipped ? `, ${skipped} skipped` : ""].join("");
		this.out(`\n${results.length} blocks: ${count("done")} done, ${count("cached")} cached, ${count("cancelled")} cancelled, ${count("failed") - skipped - invalid} failed${extra}\n`);
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
