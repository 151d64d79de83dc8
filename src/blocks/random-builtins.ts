import type { Lookup } from "./references";

/** What the generators draw from: the built-ins' injected entropy (builtins.ts). */
interface Draws {
	/** A number in [0, 1). */
	random(): number;
	uuid(): string;
}

/**
 * JetBrains' and httpyac's `{{$random.…}}` generators: `uuid`, `integer(from, to)`,
 * `float(from, to)`, `alphabetic(length)`, `alphanumeric(length)`, `numeric(length)`,
 * `hexadecimal(length)`, `email`. `from` is included and `to` excluded, as JetBrains documents;
 * without bounds 0 to 1000, without a length 10 (httpyac's default). Every value is drawn from the
 * injected entropy, so a test can make it deterministic.
 */
const CALL = /^\$random\.([A-Za-z]+)(?:\(\s*(.*?)\s*\))?$/;
const FORM = "{{$random.uuid}}, {{$random.integer(from, to)}}, {{$random.float(from, to)}}, {{$random.alphabetic(length)}}, {{$random.alphanumeric(length)}}, {{$random.numeric(length)}}, {{$random.hexadecimal(length)}} or {{$random.email}}";

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const LETTERS = `${LOWER.toUpperCase()}${LOWER}`;
const DIGITS = "0123456789";
const CHARACTERS: Record<string, string> = {
	alphabetic: LETTERS,
	// JetBrains: letters, digits and underscores.
	alphanumeric: `${LETTERS}${DIGITS}_`,
	numeric: DIGITS,
	hexadecimal: `${DIGITS}abcdef`,
};
/** The longest string a `(length)` may ask for: a value, not a way to fill the heap by a typo. */
const MAX_LENGTH = 10_000;
const DEFAULT_LENGTH = 10;
const EMAIL_DOMAINS = ["com", "org", "net", "io", "dev"];

function invalid(written: string, why: string): Lookup {
	return { ok: false, message: `Invalid built-in {{${written}}}: ${why}; use ${FORM}` };
}

function text(entropy: Draws, chars: string, length: number): string {
	let out = "";
	for (let i = 0; i < length; i++) out += chars[Math.floor(entropy.random() * chars.length)];
	return out;
}

/** `from, to` as numbers (integers where `integer` asks), or the reason they are not. */
function bounds(args: string[], integer: boolean): { ok: true; from: number; to: number } | { ok: false; why: string } {
	if (args.length === 0) return { ok: true, from: 0, to: 1000 };
	const numeric = integer ? /^-?\d+$/ : /^-?(\d+\.?\d*|\.\d+)$/;
	if (args.length !== 2 || !args.every((a) => numeric.test(a))) return { ok: false, why: `it takes two ${integer ? "integers" : "numbers"}, from and to` };
	const [from, to] = args.map(Number);
	if (integer && !(Number.isSafeInteger(from) && Number.isSafeInteger(to) && Number.isSafeInteger(to - from))) return { ok: false, why: `from and to must lie within ±${Number.MAX_SAFE_INTEGER}, as must to - from` };
	if (!(to > from)) return { ok: false, why: `from must be less than to (got ${args[0]}, ${args[1]})` };
	return { ok: true, from, to };
}

/** Evaluates `{{$random.…}}`; undefined when `written` does not start `$random.`. */
export function evaluateRandom(written: string, entropy: Draws): Lookup | undefined {
	if (!written.startsWith("$random.")) return undefined;
	const call = CALL.exec(written);
	if (!call) {
		// Datafaker's `$random.address.city` and the like: a generator of its own, not a malformed call.
		const named = /^(\$random\.[A-Za-z.]+)(\(.*\))?$/.exec(written);
		return invalid(written, named ? `${named[1]} is not one of them` : "write the arguments in one pair of parentheses");
	}
	const [, name, list] = call;
	const args = list === undefined || list === "" ? [] : list.split(/\s*,\s*/);
	switch (name) {
		case "uuid":
		case "email":
			if (args.length > 0) return invalid(written, `$random.${name} takes no arguments`);
			return { ok: true, value: name === "uuid" ? entropy.uuid() : `${text(entropy, `${LOWER}${DIGITS}`, 12)}@${text(entropy, LOWER, 8)}.${EMAIL_DOMAINS[Math.floor(entropy.random() * EMAIL_DOMAINS.length)]}` };
		case "integer":
		case "float": {
			const b = bounds(args, name === "integer");
			if (!b.ok) return invalid(written, b.why);
			const drawn = b.from + entropy.random() * (b.to - b.from);
			return { ok: true, value: String(name === "integer" ? Math.floor(drawn) : drawn) };
		}
		default: {
			if (!Object.prototype.hasOwnProperty.call(CHARACTERS, name)) return invalid(written, `$random.${name} is not one of them`);
			if (args.length > 1 || (args.length === 1 && !/^\d+$/.test(args[0]))) return invalid(written, "it takes one length, a whole number");
			const length = args.length === 0 ? DEFAULT_LENGTH : Number(args[0]);
			if (length < 1 || length > MAX_LENGTH) return invalid(written, `the length must be 1 to ${MAX_LENGTH}`);
			return { ok: true, value: text(entropy, CHARACTERS[name], length) };
		}
	}
}
