import { carriedTextOf } from "../../src/ui/text-module";

/**
 * The modules main.js carries as text (esbuild.config.mjs), found in the bundle itself: each is
 * the comment of its carrier, an empty function whose comment opens with `/*! text module <id>`
 * and runs to the first `*\/` (the build escapes any inside the code). main.js has one, the core
 * (src/ui/plugin-core.ts), and the core's text has the others (`TEXT_MODULES`).
 */
export interface TextModule {
	id: string;
	/** Where its comment starts in the code searched (the `/*!`), and its length with both delimiters. */
	start: number;
	length: number;
}

const MARK = "/*! text module ";
const CORE = "src/ui/plugin-core.ts";

/** The text modules of one level of code: main.js's, or those of a text module's text. */
export function textModulesOf(code: string): TextModule[] {
	const out: TextModule[] = [];
	for (let at = code.indexOf(MARK); at >= 0; at = code.indexOf(MARK, at + 1)) {
		// A text's own first line names it (`/*! text module <id> */`): not a carrier.
		if (at === 0 && code.slice(0, code.indexOf("\n")).endsWith(" */")) continue;
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

/** A text module's code, as it is evaluated. */
export function textOf(code: string, module: TextModule): string {
	return carriedTextOf(code.slice(module.start, module.start + module.length));
}

/** The core's code (what main.ts requires once the workspace is ready), from main.js. */
export function coreCode(main: string): string {
	const core = textModulesOf(main).find((m) => m.id === CORE);
	if (!core) throw new Error(`main.js carries no ${CORE}`);
	return textOf(main, core);
}

/** Every text module of main.js, the core's own included: ids with their code. */
export function allTextModules(main: string): { id: string; text: string }[] {
	const outer = textModulesOf(main).map((m) => ({ id: m.id, text: textOf(main, m) }));
	return outer.flatMap((m) => [m, ...textModulesOf(m.text).map((inner) => ({ id: inner.id, text: textOf(m.text, inner) }))]);
}

/** Code without its text modules' comments: what the engine compiles when it evaluates that code. */
export function eagerCode(code: string): string {
	let out = "";
	let from = 0;
	for (const m of textModulesOf(code)) {
		out += code.slice(from, m.start);
		from = m.start + m.length;
	}
	return out + code.slice(from);
}

/** Bytes of code outside its text modules. */
export function eagerBytes(code: string): number {
	return Buffer.byteLength(eagerCode(code));
}
