import type { StreamMessage } from "./stream-model";

/** Lines of one message shown in the list; the rest are counted under them (the list stays scannable). */
export const MAX_MESSAGE_LINES = 40;
/** Characters of one shown line; a longer line is cut, so one huge message never stalls a frame. */
export const MAX_LINE_CHARS = 2000;
/** Text above this size is shown as received: pretty-printing it would cost a frame. */
const MAX_PRETTY_CHARS = 256 * 1024;

/** What the list shows of a message's data: its first lines and how many more it has. */
export interface MessageLines {
	readonly lines: readonly string[];
	/** Lines not shown (0 when the message fits). */
	readonly more: number;
	/** True when the text is JSON (pretty-printed), so the list can highlight it. */
	readonly json: boolean;
}

/** JSON text pretty-printed with two spaces, or null when the text is not one JSON object or array. */
export function prettyJson(text: string): string | null {
	const value = parsedJson(text);
	return value === undefined ? null : JSON.stringify(value, null, 2);
}

/**
 * The data as the list shows it: JSON pretty-printed, other text as it is, binary as its base64
 * (the row's header gives the size). Long messages keep their first MAX_MESSAGE_LINES lines.
 */
export function messageLines(m: StreamMessage): MessageLines {
	const pretty = m.binary ? null : prettyJson(m.data);
	const text = pretty ?? m.data;
	const all = text.split(/\r?\n/);
	const shown = all.length > MAX_MESSAGE_LINES ? all.slice(0, MAX_MESSAGE_LINES) : all;
	return {
		lines: shown.map((l) => (l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l)),
		more: all.length - shown.length,
		json: pretty !== null,
	};
}

/**
 * Lines JSON.stringify(value, null, 2) would print, counted up to `cap` on the parsed value: a
 * non-empty array or object takes a line per member plus its closing line, anything else shares
 * its member's line (strings print escaped, so they never break a line).
 */
export function prettyLineCount(value: unknown, cap: number): number {
	let lines = 1;
	const pending: unknown[] = [value];
	while (pending.length > 0 && lines <= cap) {
		const v = pending.pop();
		if (v === null || typeof v !== "object") continue;
		const members = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
		if (members.length === 0) continue;
		lines += members.length + 1;
		for (const m of members) pending.push(m);
	}
	return lines;
}

/** The JSON value of text prettyJson would print, or undefined when it would print none. */
function parsedJson(text: string): unknown {
	if (text.length > MAX_PRETTY_CHARS) return undefined;
	const first = /\S/.exec(text)?.[0];
	if (first !== "{" && first !== "[") return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/**
 * Lines a message takes in the list: its header, its shown lines, and one for "N more lines".
 * Counted without printing anything (every message is measured as it arrives, 100,000 in a
 * burst; only drawn ones are pretty-printed and split).
 */
export function messageHeight(m: StreamMessage): number {
	const json = m.binary ? undefined : parsedJson(m.data);
	let lines = 1;
	if (json !== undefined) lines = prettyLineCount(json, MAX_MESSAGE_LINES);
	else for (let at = m.data.indexOf("\n"); at !== -1 && lines <= MAX_MESSAGE_LINES; at = m.data.indexOf("\n", at + 1)) lines++;
	return 1 + Math.min(lines, MAX_MESSAGE_LINES) + (lines > MAX_MESSAGE_LINES ? 1 : 0);
}
