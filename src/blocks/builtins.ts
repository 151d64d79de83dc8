import type { Lookup } from "./references";

/** Sources of time and randomness, injected so built-ins are testable and deterministic on demand. */
export interface Entropy {
	now(): Date;
	/** A number in [0, 1). */
	random(): number;
	uuid(): string;
}

export const systemEntropy: Entropy = {
	now: () => new Date(),
	random: () => Math.random(),
	uuid: () => crypto.randomUUID(),
};

const UNIT_MS: Record<string, number> = {
	ms: 1,
	s: 1000,
	m: 60_000,
	h: 3_600_000,
	d: 86_400_000,
	w: 604_800_000,
};

/**
 * Dates a built-in may produce: years 0001 to 9999, what both ISO 8601 (four-digit years) and
 * RFC 1123 write. Beyond them `toISOString` throws a RangeError and `toUTCString` says
 * "Invalid Date", so an offset that lands outside is an error, never a value on the wire.
 */
const MIN_DATE_MS = new Date("0001-01-01T00:00:00.000Z").getTime();
const MAX_DATE_MS = new Date("9999-12-31T23:59:59.999Z").getTime();

const OFFSET_FORM = `"<integer> <unit>" with unit one of ${Object.keys(UNIT_MS).join(", ")}`;

/** The form each built-in accepts, quoted in its errors. */
const FORMS = {
	uuid: "{{uuid}}, {{$uuid}} or {{$guid}} (no arguments)",
	timestamp: "{{$timestamp}} or {{$timestamp <integer> <unit>}}",
	isoTimestamp: "{{$isoTimestamp}} or {{$isoTimestamp <integer> <unit>}}",
	randomInt: "{{randomInt}} or {{randomInt MIN MAX}} with integers MIN < MAX",
	datetime: "{{$datetime iso8601|rfc1123 [<integer> <unit>]}}",
} as const;

/** A built-in's error: names the reference as written and the form it accepts. */
function invalid(inner: string, why: string, form: string): Lookup {
	return { ok: false, message: `Invalid built-in {{${inner}}}: ${why}; use ${form}` };
}

/** REST Client offsets: `{{$timestamp -1 d}}`, `{{$datetime iso8601 2 h}}`, applied within the years 0001-9999. */
function applyOffset(date: Date, args: string[]): { ok: true; date: Date } | { ok: false; why: string } {
	if (args.length === 0) return { ok: true, date };
	if (args.length !== 2 || !/^[-+]?\d+$/.test(args[0]) || !Object.prototype.hasOwnProperty.call(UNIT_MS, args[1])) {
		return { ok: false, why: `the offset must be ${OFFSET_FORM}` };
	}
	const amount = Number(args[0]);
	const ms = amount * UNIT_MS[args[1]];
	const at = date.getTime() + ms;
	if (!Number.isSafeInteger(amount) || !Number.isFinite(at) || at < MIN_DATE_MS || at > MAX_DATE_MS) {
		return { ok: false, why: `the offset ${args[0]} ${args[1]} goes past the years 0001-9999` };
	}
	return { ok: true, date: new Date(at) };
}

function randomInt(entropy: Entropy, inner: string, args: string[]): Lookup {
	let min = 0;
	let max = 1000;
	if (args.length > 0) {
		if (args.length !== 2 || !args.every((a) => /^-?\d+$/.test(a))) return invalid(inner, "it takes two integers", FORMS.randomInt);
		[min, max] = args.map(Number);
		if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || !Number.isSafeInteger(max - min)) {
			return invalid(inner, `MIN and MAX must lie within ±${Number.MAX_SAFE_INTEGER}, as must MAX - MIN`, FORMS.randomInt);
		}
		if (max <= min) return invalid(inner, `MIN must be less than MAX (got ${args[0]} ${args[1]})`, FORMS.randomInt);
	}
	// MAX is excluded, as in REST Client's $randomInt.
	return { ok: true, value: String(min + Math.floor(entropy.random() * (max - min))) };
}

function dated(entropy: Entropy, inner: string, args: string[], form: string, format: (d: Date) => string): Lookup {
	const now = entropy.now();
	if (!Number.isFinite(now.getTime())) return invalid(inner, "the clock gave no valid date", form);
	const d = applyOffset(now, args);
	return d.ok ? { ok: true, value: format(d.date) } : invalid(inner, d.why, form);
}

/**
 * Evaluates a built-in generator (`uuid`, `timestamp`, `isoTimestamp`, `randomInt [MIN MAX]`, and
 * REST Client's `$guid`, `$uuid`, `$timestamp`, `$isoTimestamp`, `$randomInt`, `$datetime`),
 * or returns undefined when `inner` is not a built-in. Never throws: malformed or out-of-range
 * arguments are an error naming the reference and the accepted form (DESIGN.md §3).
 */
export function evaluateBuiltin(inner: string, entropy: Entropy = systemEntropy): Lookup | undefined {
	const written = inner.trim();
	const [name, ...args] = written.split(/\s+/);
	switch (name) {
		case "uuid":
		case "$uuid":
		case "$guid":
			return args.length ? invalid(written, `${name} takes no arguments`, FORMS.uuid) : { ok: true, value: entropy.uuid() };
		case "timestamp":
		case "$timestamp":
			return dated(entropy, written, args, FORMS.timestamp, (d) => String(Math.floor(d.getTime() / 1000)));
		case "isoTimestamp":
		case "$isoTimestamp":
			return dated(entropy, written, args, FORMS.isoTimestamp, (d) => d.toISOString());
		case "randomInt":
		case "$randomInt":
			return randomInt(entropy, written, args);
		case "$datetime":
		case "$localDatetime": {
			const [format, ...offset] = args;
			const form = FORMS.datetime.replace("$datetime", name);
			if (format === "iso8601") return dated(entropy, written, offset, form, (d) => d.toISOString());
			if (format === "rfc1123") return dated(entropy, written, offset, form, (d) => d.toUTCString());
			return invalid(written, format === undefined ? "the format is missing" : `unknown format ${format}`, form);
		}
		default:
			return undefined;
	}
}

/** Names offered by completion, with a short description. */
export const BUILTIN_COMPLETIONS: ReadonlyArray<{ label: string; detail: string }> = [
	{ label: "uuid", detail: "random UUID v4" },
	{ label: "timestamp", detail: "unix time, seconds" },
	{ label: "isoTimestamp", detail: "ISO 8601 date-time (UTC)" },
	{ label: "randomInt", detail: "random integer 0..999, or randomInt MIN MAX" },
	{ label: "$guid", detail: "random UUID v4 (REST Client)" },
	{ label: "$timestamp", detail: "unix time, seconds (REST Client)" },
	{ label: "$randomInt", detail: "$randomInt MIN MAX (REST Client)" },
	{ label: "$datetime iso8601", detail: "ISO 8601 date-time (REST Client)" },
];
