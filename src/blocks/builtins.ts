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

/** REST Client offsets: `{{$timestamp -1 d}}`, `{{$datetime iso8601 2 h}}`. */
function applyOffset(date: Date, args: string[]): Date | string {
	if (args.length === 0) return date;
	if (args.length !== 2 || !/^[-+]?\d+$/.test(args[0]) || !(args[1] in UNIT_MS)) {
		return `offset must be "<integer> <unit>" with unit one of ${Object.keys(UNIT_MS).join(", ")}`;
	}
	return new Date(date.getTime() + Number(args[0]) * UNIT_MS[args[1]]);
}

function randomInt(entropy: Entropy, args: string[]): Lookup {
	let min = 0;
	let max = 1000;
	if (args.length > 0) {
		if (args.length !== 2 || !args.every((a) => /^-?\d+$/.test(a))) {
			return { ok: false, message: "randomInt takes two integers: {{randomInt MIN MAX}}" };
		}
		[min, max] = args.map(Number);
		if (max <= min) return { ok: false, message: `randomInt needs MIN < MAX (got ${min} ${max})` };
	}
	// MAX is excluded, as in REST Client's $randomInt.
	return { ok: true, value: String(min + Math.floor(entropy.random() * (max - min))) };
}

function dated(entropy: Entropy, args: string[], format: (d: Date) => string): Lookup {
	const d = applyOffset(entropy.now(), args);
	return typeof d === "string" ? { ok: false, message: d } : { ok: true, value: format(d) };
}

/**
 * Evaluates a built-in generator (`uuid`, `timestamp`, `isoTimestamp`, `randomInt [MIN MAX]`, and
 * REST Client's `$guid`, `$uuid`, `$timestamp`, `$isoTimestamp`, `$randomInt`, `$datetime`),
 * or returns undefined when `inner` is not a built-in.
 */
export function evaluateBuiltin(inner: string, entropy: Entropy = systemEntropy): Lookup | undefined {
	const [name, ...args] = inner.trim().split(/\s+/);
	switch (name) {
		case "uuid":
		case "$uuid":
		case "$guid":
			return args.length ? { ok: false, message: `${name} takes no arguments` } : { ok: true, value: entropy.uuid() };
		case "timestamp":
		case "$timestamp":
			return dated(entropy, args, (d) => String(Math.floor(d.getTime() / 1000)));
		case "isoTimestamp":
		case "$isoTimestamp":
			return dated(entropy, args, (d) => d.toISOString());
		case "randomInt":
		case "$randomInt":
			return randomInt(entropy, args);
		case "$datetime":
		case "$localDatetime": {
			const [format, ...offset] = args;
			if (format === "iso8601") return dated(entropy, offset, (d) => d.toISOString());
			if (format === "rfc1123") return dated(entropy, offset, (d) => d.toUTCString());
			return { ok: false, message: `${name} format must be iso8601 or rfc1123` };
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
