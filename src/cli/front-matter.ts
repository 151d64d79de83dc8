import type * as Yaml from "yaml";

/**
 * A note's YAML front matter for the CLI, as Obsidian reads it: a `---` line at the very start,
 * up to the next `---` line. `yaml` is required when a note's properties are first read or
 * written, never at the CLI's start.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
const yaml = (): typeof Yaml => require("yaml") as typeof Yaml;

const OPEN = /^---[ \t]*(\r?\n)/;
const CLOSE = /^---[ \t]*$/m;

interface Located {
	/** The YAML between the two `---` lines. */
	yaml: string;
	/** Offset just after the closing `---` line's text (before its line break). */
	end: number;
	eol: "\n" | "\r\n";
}

function locate(text: string): Located | null {
	const open = OPEN.exec(text);
	if (!open) return null;
	const from = open[0].length;
	const close = CLOSE.exec(text.slice(from));
	if (!close) return null;
	return { yaml: text.slice(from, from + close.index), end: from + close.index + close[0].length, eol: open[1] as "\n" | "\r\n" };
}

/** The note's properties; empty without front matter. A front matter that is not a YAML map is an error, with yaml's reason. */
export function readFrontMatter(text: string): { ok: true; properties: Record<string, unknown> } | { ok: false; message: string } {
	const found = locate(text);
	if (!found) return { ok: true, properties: {} };
	const doc = yaml().parseDocument(found.yaml);
	if (doc.errors.length > 0) return { ok: false, message: `the front matter is not valid YAML: ${doc.errors[0].message}` };
	const value: unknown = doc.toJS();
	if (value === null || value === undefined) return { ok: true, properties: {} };
	if (typeof value !== "object" || Array.isArray(value)) return { ok: false, message: "the front matter is not a map of properties" };
	return { ok: true, properties: value as Record<string, unknown> };
}

/**
 * The note with these properties set: the other properties, their comments and the note's body
 * kept as written; a note without front matter gets one at its start, in the note's line breaks.
 */
export function setFrontMatter(text: string, values: Record<string, unknown>): { ok: true; text: string } | { ok: false; message: string } {
	const found = locate(text);
	const eol = found?.eol ?? (text.includes("\r\n") ? "\r\n" : "\n");
	const doc = yaml().parseDocument(found?.yaml ?? "");
	if (doc.errors.length > 0) return { ok: false, message: `the front matter is not valid YAML: ${doc.errors[0].message}` };
	if (doc.contents !== null && !yaml().isMap(doc.contents)) return { ok: false, message: "the front matter is not a map of properties" };
	for (const [name, value] of Object.entries(values)) doc.set(name, value);
	const written = doc.toString({ lineWidth: 0 }).replace(/\r?\n/g, eol);
	const head = `---${eol}${written}---`;
	return { ok: true, text: found ? head + text.slice(found.end) : `${head}${eol}${text}` };
}
