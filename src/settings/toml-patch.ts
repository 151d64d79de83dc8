import { toml } from "./toml";
import { findKey, findTable, formatKeyPart, layoutOf } from "./toml-locate";

/** A value the settings page (or an import) writes. */
export type PatchValue = string | number | boolean | { secret: string } | readonly string[];

/** Thrown inside the patch functions; callers get it as a value from `patchToml`. */
export class TomlPatchError extends Error {}

/** The edited text, or why user.toml was left as it was. */
export type TomlPatch = { ok: true; text: string } | { ok: false; message: string };

/** Applies an edit made of the functions below; a refusal (a file that does not parse, a key written with dotted keys) is a value, anything else our bug. */
export function patchToml(text: string, edit: (text: string) => string): TomlPatch {
	try {
		return { ok: true, text: edit(text) };
	} catch (e) {
		if (e instanceof TomlPatchError) return { ok: false, message: e.message };
		throw e;
	}
}

function assertParses(text: string, what: string): Record<string, unknown> {
	try {
		return toml().parse(text);
	} catch (e) {
		throw new TomlPatchError(`${what}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
	}
}

/** The document of a TOML text, or why it does not parse (the parser's first line). */
export function readToml(text: string): { ok: true; doc: Record<string, unknown> } | { ok: false; message: string } {
	try {
		return { ok: true, doc: toml().parse(text) };
	} catch (e) {
		return { ok: false, message: e instanceof Error ? e.message.split("\n")[0] : String(e) };
	}
}

/** TOML text of one value (strings escaped by smol-toml itself). */
export function formatValue(value: PatchValue): string {
	if (isStringList(value)) return `[${value.map((v) => formatValue(v)).join(", ")}]`;
	if (typeof value === "object") return `{ secret = ${formatValue(value.secret)} }`;
	if (typeof value === "number" && !Number.isFinite(value)) throw new TomlPatchError(`cannot write ${value}`);
	return toml().stringify({ v: value }).replace(/^v = /, "").trim();
}

const isStringList = (value: PatchValue): value is readonly string[] => Array.isArray(value);

function valueAt(doc: Record<string, unknown>, path: readonly string[]): unknown {
	let cur: unknown = doc;
	for (const p of path) {
		if (typeof cur !== "object" || cur === null) return undefined;
		cur = (cur as Record<string, unknown>)[p];
	}
	return cur;
}

function eol(text: string): string {
	return text.includes("\r\n") ? "\r\n" : "\n";
}

/** Re-parses the result and checks the key holds the value: the file is never left broken. */
function verified(text: string, path: readonly string[], value: PatchValue | undefined): string {
	const doc = assertParses(text, "the patched settings would not parse (nothing was written)");
	const got = valueAt(doc, path);
	const ok = value === undefined ? got === undefined : JSON.stringify(got) === JSON.stringify(value);
	if (!ok) throw new TomlPatchError(`could not set ${path.join(".")} in place (nothing was written)`);
	return text;
}

/**
 * Sets one key, changing nothing else: comments, blank lines, order, formatting and unknown
 * keys are kept byte for byte. The value is replaced in place (a trailing comment stays);
 * a missing key goes after the last key of its table; a missing table is appended.
 * Refuses to touch a document that does not parse.
 */
export function setTomlValue(text: string, path: readonly string[], value: PatchValue): string {
	if (path.length < 2) throw new TomlPatchError("only keys inside a table can be set");
	assertParses(text, "user.toml does not parse, so it was not changed");
	const layout = layoutOf(text);
	const formatted = formatValue(value);
	const key = findKey(layout, path);
	if (key) {
		const current = text.slice(key.valueFrom, key.valueTo);
		if (/^("""|'''|\[)/.test(current) && !/^\[.*\]$/.test(current)) throw new TomlPatchError(`${path.join(".")} spans several lines; edit it in user.toml`);
		return verified(text.slice(0, key.valueFrom) + formatted + text.slice(key.valueTo), path, value);
	}
	const nl = eol(text);
	for (let n = path.length - 1; n >= 1; n--) {
		const table = findTable(layout, path.slice(0, n));
		if (!table || table.array) continue;
		const rest = path.slice(n).map(formatKeyPart).join(".");
		const at = table.lastKeyEnd;
		const before = text.slice(0, at);
		const needsBreak = before.length > 0 && !before.endsWith("\n");
		return verified(`${before}${needsBreak ? nl : ""}${rest} = ${formatted}${nl}${text.slice(at)}`, path, value);
	}
	const header = path.slice(0, -1).map(formatKeyPart).join(".");
	const sep = text === "" ? "" : text.endsWith("\n") ? nl : nl + nl;
	return verified(`${text}${sep}[${header}]${nl}${formatKeyPart(path[path.length - 1])} = ${formatted}${nl}`, path, value);
}

/** Removes one key line (its comment lines above stay: they may describe more than the key). */
export function deleteTomlKey(text: string, path: readonly string[]): string {
	assertParses(text, "user.toml does not parse, so it was not changed");
	const key = findKey(layoutOf(text), path);
	if (!key) return text;
	return verified(text.slice(0, key.lineFrom) + text.slice(key.lineTo), path, undefined);
}

/** Renames a table and its sub-tables (`[environments.dev]` → `[environments.prod]`). */
export function renameTomlTable(text: string, from: readonly string[], to: readonly string[]): string {
	const doc = assertParses(text, "user.toml does not parse, so it was not changed");
	if (valueAt(doc, to) !== undefined) throw new TomlPatchError(`${to.join(".")} already exists`);
	const layout = layoutOf(text);
	const starts = (p: readonly string[]) => from.every((x, i) => p[i] === x);
	if (layout.keys.some((k) => starts(k.path) && !layout.tables.some((t) => starts(t.path) && t.headerFrom < k.lineFrom))) {
		throw new TomlPatchError(`${from.join(".")} is written with dotted keys; rename it in user.toml`);
	}
	let out = "";
	let last = 0;
	for (const t of layout.tables) {
		if (!starts(t.path)) continue;
		const header = [...to, ...t.path.slice(from.length)].map(formatKeyPart).join(".");
		const line = text.slice(t.headerFrom, t.headerTo);
		const brackets = t.array ? ["[[", "]]"] : ["[", "]"];
		const rewritten = line.replace(/^(\s*)\[\[?.*?\]\]?/, `$1${brackets[0]}${header}${brackets[1]}`);
		out += text.slice(last, t.headerFrom) + rewritten;
		last = t.headerTo;
	}
	out += text.slice(last);
	const after = assertParses(out, "the renamed settings would not parse (nothing was written)");
	if (JSON.stringify(valueAt(after, to)) !== JSON.stringify(valueAt(doc, from))) throw new TomlPatchError(`could not rename ${from.join(".")}`);
	return out;
}

/**
 * Removes a table and its sub-tables (`[environments.dev]`, `[environments.dev.extra]`): each
 * header line through the line before the next header. Comment lines directly above a removed
 * header go with it; everything else stays.
 */
export function deleteTomlTable(text: string, path: readonly string[]): string {
	assertParses(text, "user.toml does not parse, so it was not changed");
	const layout = layoutOf(text);
	const inside = (p: readonly string[]) => path.every((x, i) => p[i] === x);
	if (layout.keys.some((k) => inside(k.path) && !layout.tables.some((t) => inside(t.path) && t.headerFrom < k.lineFrom && t.path.every((x, i) => k.path[i] === x)))) {
		throw new TomlPatchError(`${path.join(".")} is written with dotted keys; remove it in user.toml`);
	}
	// A header's own comment block: the contiguous comment lines right above it.
	const blockStart = (headerFrom: number) => {
		let from = headerFrom;
		while (from > 0) {
			const prevStart = text.lastIndexOf("\n", from - 2) + 1;
			if (!/^\s*#/.test(text.slice(prevStart, from))) break;
			from = prevStart;
		}
		return from;
	};
	const cuts: Array<[number, number]> = [];
	layout.tables.forEach((t, i) => {
		if (!inside(t.path)) return;
		const next = layout.tables[i + 1];
		cuts.push([blockStart(t.headerFrom), next ? blockStart(next.headerFrom) : text.length]);
	});
	if (cuts.length === 0) return text;
	let out = "";
	let last = 0;
	for (const [from, to] of cuts) {
		out += text.slice(last, Math.max(from, last));
		last = to;
	}
	out += text.slice(last);
	return verified(out.replace(/\n{3,}$/, "\n"), path, undefined);
}
