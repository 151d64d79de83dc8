/**
 * The modules main.js carries as text (esbuild.config.mjs, `TEXT_MODULES`), found in the bundle
 * itself: each text begins with `/*! text module <id> *\/` inside one string literal, which this
 * reads to its closing quote. What is left is the part Obsidian's start compiles.
 */
export interface TextModule {
	id: string;
	/** Where its string literal starts in main.js (the opening quote), and its length with the quotes. */
	start: number;
	length: number;
}

const MARK = "/*! text module ";

/** Index just past the string literal that opens at `start` (a quote of either kind, or a backtick). */
function literalEnd(code: string, start: number): number {
	const quote = code[start];
	for (let i = start + 1; i < code.length; i++) {
		if (code[i] === "\\") i++;
		else if (code[i] === quote) return i + 1;
	}
	throw new Error(`unterminated string literal at ${start}`);
}

export function textModulesOf(code: string): TextModule[] {
	const out: TextModule[] = [];
	for (let at = code.indexOf(MARK); at >= 0; at = code.indexOf(MARK, at + 1)) {
		const quote = code[at - 1];
		if (quote !== '"' && quote !== "'" && quote !== "`") throw new Error(`a text module mark outside a string literal at ${at}`);
		const end = literalEnd(code, at - 1);
		out.push({ id: code.slice(at + MARK.length, code.indexOf(" *", at + MARK.length)), start: at - 1, length: end - (at - 1) });
		at = end - 1;
	}
	return out;
}

/** main.js without its text modules' literals: what Obsidian compiles when it starts the plugin. */
export function eagerCode(code: string): string {
	let out = "";
	let from = 0;
	for (const m of textModulesOf(code)) {
		out += code.slice(from, m.start);
		from = m.start + m.length;
	}
	return out + code.slice(from);
}

/** Bytes of main.js outside its text modules. */
export function eagerBytes(code: string): number {
	return Buffer.byteLength(eagerCode(code));
}
