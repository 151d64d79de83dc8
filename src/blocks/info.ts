import { error, warning, type BlockProblem } from "./problems";

export type DisplayMode = "input" | "output" | "split";
export type EditMode = "raw" | "form";

/** Known info-string tokens, in canonical order (DESIGN.md §3). */
export const KNOWN_TOKENS = ["alias", "timeout", "display", "mode"] as const;
export type KnownToken = (typeof KNOWN_TOKENS)[number];

export const ALIAS_PATTERN = /^[A-Za-z0-9_-]+$/;

/** The values of the tokens the user wrote; absent keys were not written (defaults apply elsewhere). */
export interface InfoTokens {
	alias?: string;
	timeout?: number;
	display?: DisplayMode;
	mode?: EditMode;
}

/** One whitespace-separated word of the info string, as written. */
export interface InfoWord {
	text: string;
	/** The known key it sets, or null for an unknown token. */
	key: KnownToken | null;
}

export interface ParsedInfo {
	tokens: InfoTokens;
	words: InfoWord[];
	problems: BlockProblem[];
}

const DISPLAY_MODES: readonly DisplayMode[] = ["input", "output", "split"];
const EDIT_MODES: readonly EditMode[] = ["raw", "form"];

function knownKey(key: string): KnownToken | null {
	return (KNOWN_TOKENS as readonly string[]).includes(key) ? (key as KnownToken) : null;
}

/**
 * Parses the info string after the fence language. `{{...}}` is never resolved here:
 * a token value is taken literally (and `alias={{x}}` is simply an invalid alias).
 * Problems are reported on `line` (the fence line, by default 0), at `column` (where the info
 * string starts on that line) plus the token's offset.
 */
export function parseInfo(info: string, line = 0, column = 0): ParsedInfo {
	const tokens: InfoTokens = {};
	const problems: BlockProblem[] = [];
	const words: InfoWord[] = [];
	const seen = new Set<KnownToken>();
	for (const m of info.matchAll(/[^ \t]+/g)) {
		const text = m[0];
		const at = column + m.index;
		const eq = text.indexOf("=");
		const key = eq > 0 ? knownKey(text.slice(0, eq)) : null;
		words.push({ text, key });
		if (key === null) {
			problems.push(warning("unknown_token", `Unknown token "${text}" is kept but ignored (known: ${KNOWN_TOKENS.join(", ")})`, line, at));
			continue;
		}
		if (seen.has(key)) {
			problems.push(error("duplicate_token", `Token "${key}" is written more than once`, line, at));
			continue;
		}
		seen.add(key);
		const value = text.slice(eq + 1);
		const problem = applyToken(tokens, key, value);
		if (problem) problems.push(error("invalid_token_value", problem, line, at));
	}
	return { tokens, words, problems };
}

/** Stores a token value, or returns why it is invalid. */
function applyToken(tokens: InfoTokens, key: KnownToken, value: string): string | null {
	switch (key) {
		case "alias":
			if (!ALIAS_PATTERN.test(value)) return `alias "${value}" is invalid: use letters, digits, "_" and "-"`;
			tokens.alias = value;
			return null;
		case "timeout": {
			if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
				return `timeout "${value}" is invalid: use a positive whole number of milliseconds`;
			}
			tokens.timeout = Number(value);
			return null;
		}
		case "display":
			if (!(DISPLAY_MODES as readonly string[]).includes(value)) return `display "${value}" is invalid: use ${DISPLAY_MODES.join(", ")}`;
			tokens.display = value as DisplayMode;
			return null;
		case "mode":
			if (!(EDIT_MODES as readonly string[]).includes(value)) return `mode "${value}" is invalid: use ${EDIT_MODES.join(", ")}`;
			tokens.mode = value as EditMode;
			return null;
	}
}

/**
 * The info string in canonical order: alias, timeout, display, mode, then unknown tokens
 * in their original order. Nothing is added that was not written, nothing is dropped.
 */
export function canonicalInfo(words: readonly InfoWord[]): string {
	const known = KNOWN_TOKENS.flatMap((k) => words.filter((w) => w.key === k));
	const unknown = words.filter((w) => w.key === null);
	return [...known, ...unknown].map((w) => w.text).join(" ");
}

/**
 * Sets (or, with `null`, removes) one known token and returns the new canonical info string.
 * Used by the UI when a toolbar control changes a token.
 */
export function withToken(words: readonly InfoWord[], key: KnownToken, value: string | null): string {
	const rest = words.filter((w) => w.key !== key);
	const next = value === null ? rest : [...rest, { text: `${key}=${value}`, key }];
	return canonicalInfo(next);
}
