import { evaluateRandom } from "./random-builtins";
import type { Lookup } from "./references";

/** Sources of time and randomness, injected so built-ins are testable and deterministic on demand. */
export interface Entropy {
	now(): Date;
	/** A number in [0, 1). */
	random(): number;
	uuid(): string;
	/** `{{$processEnv NAME}}`: the process environment (CLI, desktop); absent on mobile. */
	processEnv?: (name: string) => string | undefined;
	/** `{{$dotenv NAME}}`: the `.env` file beside the note, when the host read one. */
	dotenv?: (name: string) => string | undefined;
}

export const systemEntropy: Entropy = {
	now: () => new Date(),
	random: () => Math.random(),
	uuid: () => crypto.randomUUID(),
	// The CLI and Obsidian desktop (Electron) have a process environment; mobile has none.
	...(typeof process !== "undefined" && process.env ? { processEnv: (name: string) => process.env[name] } : {}),
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
	datetime: '{{$datetime iso8601|rfc1123|"<format>" [<integer> <unit>]}}',
	processEnv: "{{$processEnv NAME}} or {{$processEnv %variable}}",
	dotenv: "{{$dotenv NAME}} or {{$dotenv %variable}}",
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
 * REST Client's `$guid`, `$uuid`, `$timestamp`, `$isoTimestamp`, `$randomInt`, `$datetime`, and
 * JetBrains' and httpyac's `$random.…` (random-builtins.ts)),
 * or returns undefined when `inner` is not a built-in. Never throws: malformed or out-of-range
 * arguments are an error naming the reference and the accepted form (docs/blocks.md).
 */
export function evaluateBuiltin(inner: string, entropy: Entropy = systemEntropy): Lookup | undefined {
	const written = inner.trim();
	if (written.startsWith("$random.")) return evaluateRandom(written, entropy);
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
			const local = name === "$localDatetime";
			const quoted = /^\S+\s+(["'])(.*?)\1\s*(.*)$/.exec(written);
			const [format, ...offset]: string[] = quoted ? ["", ...quoted[3].split(/\s+/).filter(Boolean)] : args;
			const form = FORMS.datetime.replace("$datetime", name);
			// REST Client: $datetime is UTC, $localDatetime the machine's time zone (with its offset).
			// An empty format would send an empty value where a date belongs.
			if (quoted && quoted[2] === "") return invalid(written, "the format is empty", form);
			if (quoted) return dated(entropy, written, offset, form, (d) => formatDate(d, quoted[2], local));
			if (format === "iso8601") return dated(entropy, written, offset, form, (d) => (local ? formatDate(d, "YYYY-MM-DDTHH:mm:ss.SSSZ", true) : d.toISOString()));
			if (format === "rfc1123") return dated(entropy, written, offset, form, (d) => (local ? formatDate(d, "ddd, DD MMM YYYY HH:mm:ss ZZ", true) : d.toUTCString()));
			return invalid(written, format === undefined ? "the format is missing" : `unknown format ${format}`, form);
		}
		case "$processEnv":
		case "$dotenv": {
			const form = name === "$processEnv" ? FORMS.processEnv : FORMS.dotenv;
			if (args.length !== 1) return invalid(written, "it takes one name", form);
			const read = name === "$processEnv" ? entropy.processEnv : entropy.dotenv;
			if (!read) return invalid(written, name === "$processEnv" ? "there is no process environment here (mobile)" : "no .env file was read from the note's folder (opening or running the note reads it)", form);
			const value = read(args[0].replace(/^%/, ""));
			if (value !== undefined) return { ok: true, value };
			return { ok: false, message: `Unresolved reference {{${written}}}: ${args[0]} is ${name === "$processEnv" ? "not set" : "not in the .env file"}` };
		}
		default:
			return undefined;
	}
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * A custom `$datetime "…"` format: the day.js tokens REST Client and httpyac document (YYYY YY
 * MMMM MMM MM M DD D ddd HH H hh h mm m ss s SSS A a Z ZZ X x, `[literal]`) and the Java ones
 * JetBrains writes (yyyy dd), in UTC or local time.
 */
export function formatDate(d: Date, format: string, local: boolean): string {
	const get = {
		year: local ? d.getFullYear() : d.getUTCFullYear(),
		month: local ? d.getMonth() : d.getUTCMonth(),
		day: local ? d.getDate() : d.getUTCDate(),
		weekday: local ? d.getDay() : d.getUTCDay(),
		hours: local ? d.getHours() : d.getUTCHours(),
		minutes: local ? d.getMinutes() : d.getUTCMinutes(),
		seconds: local ? d.getSeconds() : d.getUTCSeconds(),
		ms: local ? d.getMilliseconds() : d.getUTCMilliseconds(),
	};
	const offset = local ? -d.getTimezoneOffset() : 0;
	const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, "0");
	const zone = (sep: string) => `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60))}${sep}${pad(Math.abs(offset) % 60)}`;
	const tokens: Record<string, () => string> = {
		YYYY: () => pad(get.year, 4),
		yyyy: () => pad(get.year, 4),
		YY: () => pad(get.year % 100),
		yy: () => pad(get.year % 100),
		MMMM: () => new Date(Date.UTC(2000, get.month, 1)).toLocaleString("en", { month: "long", timeZone: "UTC" }),
		MMM: () => MONTHS[get.month],
		MM: () => pad(get.month + 1),
		M: () => String(get.month + 1),
		ddd: () => DAYS[get.weekday],
		DD: () => pad(get.day),
		dd: () => pad(get.day),
		D: () => String(get.day),
		d: () => String(get.day),
		HH: () => pad(get.hours),
		H: () => String(get.hours),
		hh: () => pad(get.hours % 12 || 12),
		h: () => String(get.hours % 12 || 12),
		mm: () => pad(get.minutes),
		m: () => String(get.minutes),
		ss: () => pad(get.seconds),
		s: () => String(get.seconds),
		SSS: () => pad(get.ms, 3),
		A: () => (get.hours < 12 ? "AM" : "PM"),
		a: () => (get.hours < 12 ? "am" : "pm"),
		ZZ: () => zone(""),
		Z: () => zone(":"),
		X: () => String(Math.floor(d.getTime() / 1000)),
		x: () => String(d.getTime()),
	};
	return format.replace(/\[([^\]]*)\]|YYYY|yyyy|YY|yy|MMMM|MMM|MM|M|ddd|DD|dd|D|d|HH|H|hh|h|mm|m|ss|s|SSS|A|a|ZZ|Z|X|x/g, (t, literal: string | undefined) => (literal !== undefined ? literal : tokens[t]()));
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
	{ label: "$dotenv NAME", detail: "a value of the .env file in the note's folder (REST Client)" },
	{ label: "$processEnv NAME", detail: "a variable of the process environment, CLI and desktop (REST Client)" },
	{ label: "$random.uuid", detail: "random UUID v4 (JetBrains, httpyac)" },
	{ label: "$random.integer(0, 100)", detail: "random integer, from included, to excluded (JetBrains, httpyac)" },
	{ label: "$random.alphanumeric(10)", detail: "letters, digits and _ (JetBrains, httpyac)" },
	{ label: "$random.email", detail: "random e-mail address (JetBrains, httpyac)" },
];
