import type { TokenSpec, TokensOf } from "./kind";
import { error, warning, type BlockProblem } from "./problems";

export type DisplayMode = "input" | "output" | "split";

export const ALIAS_PATTERN = /^[A-Za-z0-9_-]+$/;

/** One whitespace-separated word of the info string, as written. */
export interface InfoWord {
	text: string;
	/** The known key it sets, or null for an unknown token. */
	key: string | null;
}

export interface ParsedInfo<T = Record<string, unknown>> {
	tokens: T;
	words: InfoWord[];
	problems: BlockProblem[];
}

/** A `key=value` token whose value is one of a closed list. */
export function enumToken<K extends string, const V extends string>(key: K, values: readonly V[]): TokenSpec<K, V> {
	return {
		key,
		form: "value",
		values,
		expects: `use ${values.join(", ")}`,
		read: (text) => (values as readonly string[]).includes(text) ? (text as V) : undefined,
	};
}

/** A token written bare (`ignore_case`): present means true. */
export function flagToken<K extends string>(key: K): TokenSpec<K, true> {
	return { key, form: "flag", expects: `write ${key} alone, without a value`, read: (text) => (text === "" ? true : undefined) };
}

/** `alias=name`: names the block for `{{name.response…}}` references. */
export const aliasToken: TokenSpec<"alias", string> = {
	key: "alias",
	form: "value",
	expects: `use letters, digits, "_" and "-"`,
	read: (text) => (ALIAS_PATTERN.test(text) ? text : undefined),
};

const DIGITS = /^\d+$/;

/** `timeout=ms`: a positive whole number of milliseconds. */
export const timeoutToken: TokenSpec<"timeout", number> = {
	key: "timeout",
	form: "value",
	expects: "use a positive whole number of milliseconds",
	read: (text) => (DIGITS.test(text) && Number(text) > 0 && Number.isSafeInteger(Number(text)) ? Number(text) : undefined),
};

/** `display=`: which of input and output a block shows. */
export const displayToken = enumToken("display", ["input", "output", "split"] satisfies DisplayMode[]);

/**
 * Parses the info string after the fence language against a kind's token schema. `{{...}}` is
 * never resolved here: a token value is taken literally (and `alias={{x}}` is simply an invalid
 * alias). Problems are reported on `line` (the fence line, by default 0), at `column` (where the
 * info string starts on that line) plus the token's offset.
 */
export function parseInfo<const S extends readonly TokenSpec[]>(info: string, schema: S, line = 0, column = 0): ParsedInfo<TokensOf<S>> {
	const tokens: Record<string, unknown> = {};
	const problems: BlockProblem[] = [];
	const words: InfoWord[] = [];
	// Keys already set, by schema index: bits (schemas are short), a set past 31 keys.
	let seenBits = 0;
	let seenMore: Set<number> | null = null;
	// Words are runs of anything but spaces and tabs (a plain scan: every fence line is read).
	for (let end = 0, start = 0; start < info.length; start = end) {
		while (start < info.length && (info[start] === " " || info[start] === "\t")) start++;
		if (start === info.length) break;
		end = start + 1;
		while (end < info.length && info[end] !== " " && info[end] !== "\t") end++;
		const text = info.slice(start, end);
		const at = column + start;
		const eq = text.indexOf("=");
		const k = specIndex(schema, text, eq);
		const spec = k === -1 ? undefined : schema[k];
		words.push({ text, key: spec?.key ?? null });
		if (!spec) {
			problems.push(warning("unknown_token", `Unknown token "${text}" is kept but ignored (known: ${schema.map((s) => s.key).join(", ")})`, line, at));
			continue;
		}
		if (k < 31 ? (seenBits & (1 << k)) !== 0 : seenMore?.has(k) === true) {
			problems.push(error("duplicate_token", `Token "${spec.key}" is written more than once`, line, at));
			continue;
		}
		if (k < 31) seenBits |= 1 << k;
		else (seenMore ??= new Set()).add(k);
		const written = eq > 0 ? text.slice(eq + 1) : "";
		// A flag written with a value (`ignore_case=yes`) is as wrong as a bad value.
		const value = spec.form === "flag" && eq > 0 ? undefined : spec.read(written);
		if (value === undefined) problems.push(error("invalid_token_value", `${spec.key} "${written}" is invalid: ${spec.expects}`, line, at));
		else tokens[spec.key] = value;
	}
	return { tokens: tokens as TokensOf<S>, words, problems };
}

/** The index of the spec a word sets (`key=value`, or a bare flag), or -1. */
function specIndex(schema: readonly TokenSpec[], text: string, eq: number): number {
	for (let k = 0; k < schema.length; k++) {
		const s = schema[k];
		if (eq > 0 ? s.key.length === eq && text.startsWith(s.key) : s.form === "flag" && s.key === text) return k;
	}
	return -1;
}

/**
 * The info string in the schema's canonical order, then unknown tokens in their original
 * order. Nothing is added that was not written, nothing is dropped.
 */
export function canonicalInfo(words: readonly InfoWord[], schema: readonly TokenSpec[]): string {
	let out = "";
	for (let s = 0; s < schema.length; s++) for (let k = 0; k < words.length; k++) if (words[k].key === schema[s].key) out = out ? `${out} ${words[k].text}` : words[k].text;
	for (let k = 0; k < words.length; k++) if (words[k].key === null) out = out ? `${out} ${words[k].text}` : words[k].text;
	return out;
}

/**
 * Sets (or, with `null`, removes) one known token and returns the new canonical info string.
 * Used by the UI when a toolbar control changes a token.
 */
export function withToken(words: readonly InfoWord[], schema: readonly TokenSpec[], key: string, value: string | null): string {
	const spec = schema.find((s) => s.key === key);
	if (!spec) throw new Error(`withToken: "${key}" is not a token of this kind`); // a caller's bug, not user input
	const rest = words.filter((w) => w.key !== key);
	const written = spec.form === "flag" ? key : `${key}=${value}`;
	const next = value === null ? rest : [...rest, { text: written, key }];
	return canonicalInfo(next, schema);
}
