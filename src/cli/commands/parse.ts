import { parseNote, type NoteBlock } from "../../blocks";
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
		references: b.references.map(({ text, kind, start, end }) => ({ text, kind, start, end })),
		errors: problems("error"),
		warnings: problems("warning"),
	};
}

function describe(b: NoteBlock): string {
	const where = `lines ${b.fence.startLine + 1}-${b.fence.endLine + 1}`;
	const name = b.alias ? ` [${b.alias}]` : "";
	const http = b.kind === "http" ? b.http : null;
	const head = http ? `${http.method ?? "?"} ${http.url}` : b.kind;
	const out = [`${b.index + 1}. ${head}${name}  (${b.kind}, ${where})`];
	if (http && http.headers.length) out.push(`   headers: ${http.headers.map((h) => h.name).join(", ")}`);
	if (http && http.body) out.push(`   body: ${http.body.length} chars`);
	if (b.references.length) out.push(`   references: ${b.references.map((r) => r.text).join(" ")}`);
	for (const p of b.problems) out.push(`   ${p.severity}: line ${p.line + 1}:${p.column + 1}: ${p.message}`);
	return out.join("\n");
}

/** `runnable-blocks parse <note.md> [--json]`: exits 2 when a block has errors (after printing everything), else 0. */
export function runParse(file: string, json: boolean, write: (s: string) => void): number {
	const blocks = parseNote(readNote(file));
	if (json) {
		write(JSON.stringify(blocks.map(blockToJson), null, 2) + "\n");
	} else if (blocks.length === 0) {
		write(`${file}: no runnable blocks\n`);
	} else {
		write(`${file}: ${blocks.length} runnable block${blocks.length === 1 ? "" : "s"}\n${blocks.map(describe).join("\n")}\n`);
	}
	return blocks.some((b) => b.problems.some((p) => p.severity === "error")) ? EXIT.usage : EXIT.ok;
}
