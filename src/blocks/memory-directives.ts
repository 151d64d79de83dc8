import { error, type BlockProblem } from "./problems";

/**
 * The head directives that let a block leave something in its note or repeat itself
 * (docs/note-memory.md): `# @property name = {{…}}` and `# @poll every=5s max=20 [unsafe]`.
 * Pure: a comment's text in, the directive or a problem out.
 */

/** `# @property price = {{$.price}}`: after a successful run, front-matter `price` is set to the value. */
export interface PropertyDirective {
	name: string;
	/** The value as written, references unresolved. */
	value: string;
	/** Line within the block. */
	line: number;
}

/** `# @poll every=5s max=20 [unsafe]`: the block re-runs until its `??` assertions pass. */
export interface PollDirective {
	/** Milliseconds between the end of one attempt and the start of the next. */
	everyMs: number;
	/** Attempts at most, the first included. */
	max: number;
	/** Methods that change the server (anything but GET, HEAD, OPTIONS, TRACE) repeat only with it. */
	unsafe: boolean;
	line: number;
}

export const POLL_DEFAULT_EVERY_MS = 5000;
export const POLL_DEFAULT_MAX = 20;
/** Shorter waits hammer the server; longer runs belong to a scheduler, not a note. */
export const POLL_MIN_EVERY_MS = 10;
export const POLL_MAX_EVERY_MS = 3_600_000;
export const POLL_MAX_ATTEMPTS = 1000;

const PROPERTY = /^@property\b[ \t]*(.*)$/;
const POLL = /^@poll\b[ \t]*(.*)$/;
/** A front-matter key: words without `=` or braces, inner spaces allowed (Obsidian quotes what YAML needs). */
const PROPERTY_NAME = /^[^\s={}]+(?:[ \t]+[^\s={}]+)*$/;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m)$/;

export type MemoryDirective = { kind: "property"; directive: PropertyDirective } | { kind: "poll"; directive: PollDirective } | { kind: "problem"; problem: BlockProblem };

/** The directive a comment's text (after `#` or `//`) holds, or null when it is none of these. */
export function parseMemoryDirective(text: string, line: number, column: number): MemoryDirective | null {
	const property = PROPERTY.exec(text);
	if (property) return propertyOf(property[1], line, column);
	const poll = POLL.exec(text);
	if (poll) return pollOf(poll[1], line, column);
	return null;
}

function problem(message: string, line: number, column: number): MemoryDirective {
	return { kind: "problem", problem: error("invalid_directive", message, line, column) };
}

function propertyOf(rest: string, line: number, column: number): MemoryDirective {
	const eq = rest.indexOf("=");
	const form = "write # @property name = {{$.path}}";
	if (eq === -1) return problem(`@property needs a name and a value: ${form}`, line, column);
	const name = rest.slice(0, eq).trim();
	const value = rest.slice(eq + 1).trim();
	if (name === "") return problem(`@property has no name: ${form}`, line, column);
	if (!PROPERTY_NAME.test(name)) return problem(`@property name "${name}" cannot be a property name: no braces, and the first = ends the name`, line, column);
	if (value === "") return problem(`@property ${name} has no value: ${form}`, line, column);
	return { kind: "property", directive: { name, value, line } };
}

function pollOf(rest: string, line: number, column: number): MemoryDirective {
	const poll: PollDirective = { everyMs: POLL_DEFAULT_EVERY_MS, max: POLL_DEFAULT_MAX, unsafe: false, line };
	const seen = new Set<string>();
	for (const word of rest.split(/[ \t]+/).filter(Boolean)) {
		const eq = word.indexOf("=");
		const key = eq === -1 ? word : word.slice(0, eq);
		if (seen.has(key)) return problem(`@poll: "${key}" is written more than once`, line, column);
		seen.add(key);
		const value = word.slice(eq + 1);
		if (key === "unsafe" && eq === -1) poll.unsafe = true;
		else if (key === "every" && eq !== -1) {
			const ms = durationMs(value);
			if (ms === null) return problem(`@poll every="${value}" is not a duration: write a number with ms, s or m (e.g. every=5s)`, line, column);
			if (ms < POLL_MIN_EVERY_MS || ms > POLL_MAX_EVERY_MS) return problem(`@poll every=${value} is out of range: from ${POLL_MIN_EVERY_MS}ms to 60m`, line, column);
			poll.everyMs = ms;
		} else if (key === "max" && eq !== -1) {
			const n = /^\d+$/.test(value) ? Number(value) : NaN;
			if (!(n >= 1 && n <= POLL_MAX_ATTEMPTS)) return problem(`@poll max="${value}" must be a whole number of attempts from 1 to ${POLL_MAX_ATTEMPTS}`, line, column);
			poll.max = n;
		} else return problem(`@poll does not know "${word}": write # @poll every=5s max=20, and unsafe to repeat a POST, PUT, PATCH or DELETE`, line, column);
	}
	return { kind: "poll", directive: poll };
}

/** `500ms`, `5s`, `1.5s`, `2m` in milliseconds; null for anything else (a bare number has no unit to guess). */
export function durationMs(text: string): number | null {
	const m = DURATION.exec(text);
	if (!m) return null;
	const ms = Number(m[1]) * (m[2] === "ms" ? 1 : m[2] === "s" ? 1000 : 60_000);
	return Number.isInteger(ms) ? ms : Math.round(ms);
}
