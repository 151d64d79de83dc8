import type { NoteBlock } from "../blocks";
import { decodeExact } from "../runner/response/charset";
import { classifyBody } from "../runner/response/content-type";
import { toBase64 } from "../runner/response/format";
import type { BlockResult } from "../runner/result";
import type { Timing } from "../runner/transport";
import { dbJson } from "./db-output";
import { cliError } from "./reporter";
import { assertionsOf, exchangeOf, outputOf } from "./kind-outputs";

/**
 * The stable per-block shape of `runnable-blocks run --json` (documented in the README).
 * Exactly one of `body` (the text, decoded in its charset) and `bodyBase64` (binary, or text that
 * does not decode) is set when there is a body.
 */
export interface RunResultJson {
	alias: string | null;
	/** 1-based line of the opening fence. */
	line: number;
	state: "done" | "cached" | "cancelled" | "failed";
	status: number | null;
	headers: Array<[string, string]>;
	body?: string;
	bodyBase64?: string;
	size: number;
	/** Milliseconds, rounded to 0.1 ms. */
	timing: Timing | null;
	error: { code: string; message: string; detail?: string } | null;
	/** True when it ran because another block referenced it. */
	dependency: boolean;
	/** The block's `??` assertions (absent when it has none). */
	assertions?: Array<{ line: number; text: string; ok: boolean; actual: string | null; message?: string }>;
	/** db blocks: connection, columns with types, rows, rowCount, statements (plan for EXPLAIN). */
	db?: Record<string, unknown>;
	/** Stream blocks (sse, websocket): each message both ways (direction, atMs since connect, data or dataBase64, size, SSE event and id). */
	messages?: Array<Record<string, unknown>>;
	/** Stream blocks: the close code and reason (null without a close frame) and why it ended. */
	close?: { code: number | null; reason: string; why: string } | null;
	counts?: { received: number; sent: number; receivedBytes: number; sentBytes: number };
}

/** Timings to 0.1 ms: finer digits are noise of the clock, not information. */
export function roundTiming(timing: Timing): Timing {
	return Object.fromEntries(Object.entries(timing).map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 10) / 10 : v])) as unknown as Timing;
}

/** Decodes the body (text or base64): only called for `--json`, where the body is asked for. */
export function resultToJson(block: NoteBlock, result: BlockResult, dependency: boolean): RunResultJson {
	const error = cliError(result);
	const http = exchangeOf(result);
	const assertions = assertionsOf(result);
	const out: RunResultJson = {
		alias: block.alias,
		line: block.fence.startLine + 1,
		state: result.state,
		status: http.head?.status ?? null,
		headers: http.head ? http.head.headers.map(([n, v]) => [n, v]) : [],
		size: http.body?.byteLength ?? 0,
		timing: result.timing ? roundTiming(result.timing) : null,
		error: error ? { code: error.code, message: error.message, ...(error.detail ? { detail: error.detail } : {}) } : null,
		dependency,
		...(assertions ? { assertions: assertions.map((a) => ({ ...a })) } : {}),
		...(result.kind === "db" && result.db ? { db: dbJson(result) } : {}),
		...outputOf(result.kind)?.json?.(result),
	};
	if (http.body) {
		// Text in its charset when every byte decodes; otherwise the bytes, losslessly (invalid
		// UTF-8 anywhere in the body, not only at its start).
		const type = classifyBody(out.headers, http.body);
		const text = type.kind === "binary" ? null : decodeExact(http.body, type.charset);
		if (text === null) out.bodyBase64 = toBase64(http.body);
		else out.body = text;
	}
	return out;
}
