// The note module, not the blocks index: `parse` evaluates the parser and nothing else of src/blocks.
import { forEachBlock, type NoteBlock } from "../../blocks/note";
import { readNote } from "../read-note";
import { EXIT } from "../usage";

/** The stable JSON shape of `runnable-blocks parse --json` (documented in the README). */
export interface ParsedBlockJson {
	kind: string;
	/** The block's alias, from the `alias=` token or a `# @name` line; null without one. */
	alias: string | null;
	/** Where `alias` was written: `info` (the fence's `alias=` token) or `name` (`# @name`). */
	aliasSource: "info" | "name" | null;
	startLine: number;
	endLine: number;
	info: Record<string, string | number | boolean>;
	canonicalInfo: string;
	method: string | null;
	url: string | null;
	headers: Array<[string, string]>;
	body: string | null;
	/** The two panes of a textdiff block (escapes removed); null for other kinds. */
	left: string | null;
	right: string | null;
	references: Array<{ text: string; kind: string; start: number; end: number }>;
	errors: Array<{ code: string; message: string; line: number; column: number }>;
	warnings: Array<{ code: string; message: string; line: number; column: number }>;
}

export function blockToJson(b: NoteBlock): ParsedBlockJson {
	const http = b.kind === "http" ? b.http : null;
	const problems = (severity: "error" | "warning") =>
		b.problems.filter((p) => p.severity === severity).map(({ code, message, line, column }) => ({ code, message, line, column }));
	return {
		kind: b.kind,
		alias: b.alias,
		aliasSource: b.aliasSource,
		startLine: b.fence.startLine,
		endLine: b.fence.endLine,
		info: { ...b.info.tokens },
		canonicalInfo: b.canonicalFenceLine,
		method: http?.method ?? null,
		url: http ? http.url : null,
		headers: http ? http.headers.map((h) => [h.name, h.value]) : [],
		body: http ? http.body : null,
		left: b.kind === "textdiff" ? b.textdiff.left : null,
		right: b.kind === "textdiff" ? b.textdiff.right : null,
		references: b.references.map(({ text, kind, start, end }) => ({ text, kind, start, end })),
		errors: problems("error"),
		warnings: problems("warning"),
	};
}

/** Appends the lines describing a block to `out`, each ending with a line break. */
function describe(b: NoteBlock, out: Chunks): void {
	const http = b.kind === "http" ? b.http : null;
	const head = http ? `${http.method ?? "?"} ${http.url}` : b.kind;
	out.add(`${b.index + 1}. ${head}${b.alias ? ` [${b.alias}]` : ""}  (${b.kind}, lines ${b.fence.startLine + 1}-${b.fence.endLine + 1})\n`);
	if (http && http.headers.length) out.add(`   headers: ${http.headers.map((h) => h.name).join(", ")}\n`);
	if (http && http.body) out.add(`   body: ${http.body.length} chars\n`);
	if (b.references.length) out.add(`   references: ${b.references.map((r) => r.text).join(" ")}\n`);
	for (const p of b.problems) out.add(`   ${p.severity}: line ${p.line + 1}:${p.column + 1}: ${p.message}\n`);
}

/** Output gathered into strings of about 64 K characters: a long note is written in few writes. */
class Chunks {
	readonly done: string[] = [];
	private parts: string[] = [];
	private size = 0;

	add(s: string): void {
		this.parts.push(s);
		this.size += s.length;
		if (this.size >= 1 << 16) this.flush();
	}

	flush(): void {
		if (this.parts.length === 0) return;
		this.done.push(this.parts.join(""));
		this.parts = [];
		this.size = 0;
	}
}

/**
 * `runnable-blocks parse <note.md> [--json]`: exits 2 when a block has errors (after printing
 * everything), else 0. Each block is described as it is parsed and then dropped (`forEachBlock`):
 * a long note is never held as blocks, only as the text to print (issue 19).
 */
export function runParse(file: string, json: boolean, write: (s: string) => void): number {
	const out = new Chunks();
	let count = 0;
	let failed = false;
	forEachBlock(readNote(file), (b) => {
		if (!failed && b.problems.some((p) => p.severity === "error")) failed = true;
		// Each element as `JSON.stringify(blocks, null, 2)` writes it: one level in.
		if (json) out.add(`${count === 0 ? "[\n  " : ",\n  "}${JSON.stringify(blockToJson(b), null, 2).replace(/\n/g, "\n  ")}`);
		else describe(b, out);
		count++;
	});
	out.flush();
	if (count === 0) {
		write(json ? "[]\n" : `${file}: no runnable blocks\n`);
	} else {
		if (!json) write(`${file}: ${count} runnable block${count === 1 ? "" : "s"}\n`);
		for (const chunk of out.done) write(chunk);
		if (json) write("\n]\n");
	}
	return failed ? EXIT.usage : EXIT.ok;
}
