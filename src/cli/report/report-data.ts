import type { NoteBlock } from "../../blocks";
import { shownRequest } from "../../runner/request";
import type { BlockResult } from "../../runner/result";
import { dbSummary } from "../db-output";
import { blockPassed } from "../commands/run";
import { cliError } from "../reporter";
import { assertionsOf, exchangeOf } from "../kind-outputs";

/**
 * What the HTML report shows, and what `merge-reports` reads back from it (the report embeds
 * it as JSON): one part per shard, since each machine has its own clock and its waterfall
 * starts at its own start. Bump `version` when a field changes meaning.
 */
export interface ReportData {
	version: 1;
	parts: ReportPart[];
}

export interface ReportPart {
	/** `shard 2/4`, or `run` without sharding. */
	label: string;
	/** Epoch ms when the part began, and its wall time. */
	startedAt: number;
	wallMs: number;
	/** Why the part stopped early (`bail`, `deadline`, `max-requests`, `interrupted`), or null. */
	stopped: string | null;
	notes: ReportNote[];
}

export type NoteStatus = "passed" | "failed" | "error" | "not-run";

export interface ReportNote {
	path: string;
	status: NoteStatus;
	/** Why a note could not run at all (its settings do not parse, …). */
	error: string | null;
	/** From the part's start, in ms; null for a note that did not run. */
	offsetMs: number | null;
	durationMs: number | null;
	blocks: ReportBlock[];
}

/** `not-run`: a stop (--bail, --deadline, --max-requests, a signal) came before its note started. */
export type BlockStatus = "passed" | "failed" | "cancelled" | "skipped" | "invalid" | "not-run";

export interface ReportBlock {
	/** The alias, or `line N`. */
	name: string;
	/** 1-based line of the opening fence. */
	line: number;
	kind: string;
	/** What ran: `GET https://…` (secrets masked as in the terminal), `db:main SELECT`. */
	request: string;
	httpStatus: number | null;
	status: BlockStatus;
	/** The run's state (done, cached, cancelled, failed). */
	state: string;
	error: string | null;
	/** From the part's start, and how long the block ran, in ms (null: it never started). */
	offsetMs: number | null;
	durationMs: number | null;
	dependency: boolean;
	assertions: Array<{ line: number; text: string; ok: boolean; actual: string | null; message: string | null }>;
	/** The unified diff against the block's pinned response, when it has a pin. */
	pinDiff: string | null;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function blockStatus(result: BlockResult, passed: boolean): BlockStatus {
	if (result.error?.code === "invalid_block") return "invalid";
	if (result.error?.code === "dependency_failed") return "skipped";
	if (result.state === "cancelled") return "cancelled";
	return passed ? "passed" : "failed";
}

function requestText(block: NoteBlock, result: BlockResult): string {
	if (block.kind === "db") return dbSummary(result, block.info.tokens.connection);
	const request = exchangeOf(result).request;
	return request ? `${request.method} ${shownRequest(request).url}` : writtenRequest(block);
}

/** A block that was not prepared (invalid, skipped, not run): its request line as written, references unresolved. */
function writtenRequest(block: NoteBlock): string {
	const http = block.kind === "http" ? block.http : null;
	return http ? `${http.method ?? http.methodWritten ?? "?"} ${http.url ?? ""}`.trim() : block.kind;
}

/** One block of the report, from its run; `failOnStatus` as the run judged it. */
export function reportBlock(block: NoteBlock, result: BlockResult, opts: { partStart: number; failOnStatus: boolean; dependency: boolean; pinDiff?: string }): ReportBlock {
	const head = exchangeOf(result).head;
	const assertions = assertionsOf(result) ?? [];
	const passed = blockPassed(result, opts.failOnStatus);
	const error = cliError(result);
	return {
		name: block.alias ?? `line ${block.fence.startLine + 1}`,
		line: block.fence.startLine + 1,
		kind: block.kind,
		request: requestText(block, result),
		httpStatus: head?.status ?? null,
		status: blockStatus(result, passed),
		state: result.state,
		error: error ? `${error.message}${error.detail ? ` (${error.detail})` : ""}` : null,
		offsetMs: result.startedAt !== undefined ? round(result.startedAt - opts.partStart) : null,
		durationMs: result.timing ? round(result.timing.total) : null,
		dependency: opts.dependency,
		assertions: assertions.map((a) => ({ line: a.line, text: a.text, ok: a.ok, actual: a.actual ?? null, message: a.message ?? null })),
		pinDiff: opts.pinDiff ?? null,
	};
}

/** The counts of the summary, over every part. */
export function reportTotals(data: ReportData): { notes: Record<NoteStatus, number>; blocks: Record<BlockStatus, number> } {
	const notes: Record<NoteStatus, number> = { passed: 0, failed: 0, error: 0, "not-run": 0 };
	const blocks: Record<BlockStatus, number> = { passed: 0, failed: 0, cancelled: 0, skipped: 0, invalid: 0, "not-run": 0 };
	for (const part of data.parts)
		for (const note of part.notes) {
			notes[note.status]++;
			for (const b of note.blocks) blocks[b.status]++;
		}
	return { notes, blocks };
}

/** A block of a note that never started: listed, so the report says what was left out. */
export function notRunBlock(block: NoteBlock): ReportBlock {
	return {
		name: block.alias ?? `line ${block.fence.startLine + 1}`,
		line: block.fence.startLine + 1,
		kind: block.kind,
		request: writtenRequest(block),
		httpStatus: null,
		status: "not-run",
		state: "not-run",
		error: null,
		offsetMs: null,
		durationMs: null,
		dependency: false,
		assertions: [],
		pinDiff: null,
	};
}
