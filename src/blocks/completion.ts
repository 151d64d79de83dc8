import { BUILTIN_COMPLETIONS } from "./builtins";
import { kindOf } from "./kinds";
import type { NoteBlock } from "./note";

/** One `{{` completion entry. */
export interface RefCompletion {
	/** Text inserted between `{{` and `}}`. */
	insert: string;
	/** Shown beside it: `(cached)`, `(env)`, or what a built-in gives. */
	hint: string;
	kind: "alias" | "note" | "variable" | "builtin" | "json-key";
}

/** The `{{query` being typed at `offset` of the note, inside a runnable block's body; null elsewhere. */
export function refTrigger(note: readonly NoteBlock[], text: string, offset: number): { start: number; query: string; block: NoteBlock } | null {
	const block = note.find((b) => b.fence.contentOffsets.length > 0 && b.fence.contentOffsets[0] <= offset && offset <= b.fence.to);
	if (!block) return null;
	const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
	const before = text.slice(lineStart, offset);
	const open = before.lastIndexOf("{{");
	if (open === -1 || before.slice(open).includes("}}") || (open > 0 && before[open - 1] === "\\")) return null;
	const query = before.slice(open + 2);
	// A note's name may hold spaces: `[[My notes/Auth]]#` is one word here.
	if (/[\s{}]/.test(query.replace(/^\[\[[^\]]*(?:\]\]|$)/, "").replace(/^\$?[A-Za-z]+ /, ""))) return null;
	return { start: lineStart + open + 2, query, block };
}

/** Top-level keys (or array indexes) of the JSON value at `path` ("$." for the root). */
function jsonKeys(body: string, path: string): string[] {
	let value: unknown;
	try {
		value = JSON.parse(body);
	} catch {
		return [];
	}
	for (const part of path.replace(/^\$\.?/, "").split(".").filter(Boolean)) {
		const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
		if (!m) return [];
		if (m[1]) value = (value as Record<string, unknown> | null)?.[m[1]];
		for (const idx of m[2].match(/\d+/g) ?? []) value = (value as unknown[] | null)?.[Number(idx)];
		if (value === undefined) return [];
	}
	if (Array.isArray(value)) return value.slice(0, 20).map((_, i) => `[${i}]`);
	return value && typeof value === "object" ? Object.keys(value) : [];
}

export interface CompletionSources {
	/** Variables of the active environment. */
	variables: readonly string[];
	/** Response body text of an alias that has run, if any. */
	cachedBody(alias: string): string | undefined;
	/** After `[[`: the vault's notes, as links to them from this note (`Auth`, `APIs/Auth` when the name is not unique). */
	notes?: readonly string[];
	/** After `[[Note]]#`: that note's blocks, when it was read (the plugin reads it before asking). */
	noteBlocks?(link: string): readonly NoteBlock[] | undefined;
	/** The files the note's `# @import` lines name (as written) with their blocks, when they were read. */
	imported?: ReadonlyArray<{ file: string; blocks: readonly NoteBlock[] }>;
}

/** `[[Auth` (a note being named) or `[[Auth]]#lo` (one of its aliases). */
const NOTE_QUERY = /^\[\[([^\]]*)$/;
const NOTE_ALIAS_QUERY = /^\[\[([^\]]+)\]\]#(.*)$/;

/** What a block of another note offers after `[[Note]]#`: the same paths as an alias of this note. */
function noteCompletions(query: string, sources: CompletionSources): RefCompletion[] | null {
	const naming = NOTE_QUERY.exec(query);
	if (naming) {
		const q = naming[1].toLowerCase();
		return (sources.notes ?? []).filter((n) => n.toLowerCase().includes(q)).map((n) => ({ insert: `[[${n}]]#`, hint: "(note)", kind: "note" }));
	}
	const aliasOf = NOTE_ALIAS_QUERY.exec(query);
	if (!aliasOf) return null;
	const [, link, typed] = aliasOf;
	const out: RefCompletion[] = [];
	for (const b of sources.noteBlocks?.(link) ?? []) {
		if (b.alias === null || !b.runnable) continue;
		for (const suffix of suffixesOf(b)) {
			const path = `${b.alias}.${suffix}`;
			if (path.toLowerCase().startsWith(typed.toLowerCase()) || b.alias.toLowerCase().startsWith(typed.toLowerCase())) out.push({ insert: `[[${link}]]#${path}`, hint: `(${link})`, kind: "note" });
		}
	}
	return out;
}

/** What an alias offers unless its kind says otherwise (`BlockKind.referenceSuffixes`): the parts of an http response. */
const RESPONSE_SUFFIXES = ["response.body.$.", "response.status", "response.headers."];

const suffixesOf = (b: NoteBlock): readonly string[] => kindOf(b.kind)?.referenceSuffixes ?? RESPONSE_SUFFIXES;

/**
 * Entries for a `{{` query: aliases of blocks above the cursor (`(cached)` when they have a
 * result), aliases of the imported files that the note does not define (marked with their file),
 * environment variables (`(env)`), built-ins; after `alias.response.body.$.` the keys of that
 * alias's cached JSON at the path typed so far.
 */
export function refCompletions(note: readonly NoteBlock[], block: NoteBlock, query: string, sources: CompletionSources): RefCompletion[] {
	const other = noteCompletions(query, sources);
	if (other) return other;
	const body = /^([A-Za-z0-9_-]+)\.response\.body\.(\$(?:\.[^.]*)*)\.([^.]*)$/.exec(query);
	if (body) {
		const [, alias, path, partial] = body;
		const cached = sources.cachedBody(alias);
		if (cached === undefined) return [];
		return jsonKeys(cached, path)
			.filter((k) => k.toLowerCase().startsWith(partial.toLowerCase()))
			.map((k) => ({ insert: `${alias}.response.body.${path}${k.startsWith("[") ? "" : "."}${k}`.replace(/\.\[/g, "["), hint: "(json)", kind: "json-key" }));
	}
	const q = query.toLowerCase();
	const out: RefCompletion[] = [];
	for (const b of note) {
		if (b.fence.startLine >= block.fence.startLine || b.alias === null) continue;
		const cached = sources.cachedBody(b.alias) !== undefined;
		for (const suffix of suffixesOf(b)) {
			const insert = `${b.alias}.${suffix}`;
			if (insert.toLowerCase().startsWith(q) || b.alias.toLowerCase().startsWith(q)) out.push({ insert, hint: cached ? "(cached)" : "", kind: "alias" });
		}
	}
	// The note's own alias wins over an imported one of the same name, as when the block runs.
	const local = new Set(note.map((b) => b.alias));
	for (const { file, blocks } of sources.imported ?? []) {
		for (const b of blocks) {
			if (b.alias === null || !b.runnable || local.has(b.alias)) continue;
			for (const suffix of suffixesOf(b)) {
				const insert = `${b.alias}.${suffix}`;
				if (insert.toLowerCase().startsWith(q) || b.alias.toLowerCase().startsWith(q)) out.push({ insert, hint: `(${file})`, kind: "alias" });
			}
		}
	}
	for (const v of sources.variables) if (v.toLowerCase().includes(q)) out.push({ insert: v, hint: "(env)", kind: "variable" });
	for (const b of BUILTIN_COMPLETIONS) if (b.label.toLowerCase().includes(q)) out.push({ insert: b.label, hint: b.detail, kind: "builtin" });
	return out;
}
