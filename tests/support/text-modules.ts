/**
 * The modules main.js carries as text (esbuild.config.mjs, `TEXT_MODULES`), found in the bundle
 * itself: each is the comment of its carrier, an empty function whose comment opens with
 * `/*! text module <id>` and runs to the first `*\/` (the build escapes any inside the code).
 * What is left is the part Obsidian's start compiles.
 */
export interface TextModule {
	id: string;
	/** Where its comment starts in main.js (the `/*!`), and its length with both delimiters. */
	start: number;
	length: number;
}

const MARK = "/*! text module ";

export function textModulesOf(code: string): TextModule[] {
	const out: TextModule[] = [];
	for (let at = code.indexOf(MARK); at >= 0; at = code.indexOf(MARK, at + 1)) {
		// The carrier is `function(){` + the comment + `}`: a mark anywhere else is text of another kind.
		if (!code.slice(Math.max(0, at - 11), at).endsWith("function(){")) throw new Error(`a text module mark outside a carrier function at ${at}`);
		const close = code.indexOf("*/", at);
		if (close < 0 || code[close + 2] !== "}") throw new Error(`the text module comment at ${at} does not close its carrier`);
		const id = code.slice(at + MARK.length, code.indexOf("\n", at));
		out.push({ id, start: at, length: close + 2 - at });
		at = close + 1;
	}
	return out;
}

/** main.js without its text modules' comments: what Obsidian compiles when it starts the plugin. */
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
