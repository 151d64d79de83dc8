/**
 * `# @import ./Auth.http` (httpyac, kulala): a note reads another file's aliases as if they were
 * its own. Only the directive and the paths it names are read here; the runner loads the files
 * (src/runner/imports.ts, the text module that carries this one too: it is needed only by a note
 * that imports) and runs an imported block the way a `{{[[Note]]#alias}}` runs one.
 */
import { httpFileToNote } from "./import-http";
import { parseNote, type NoteBlock } from "./note";
import { leadComments } from "./run-order";

/** One `# @import` line, where it is written (0-based note line and column of `@import`). */
export interface ImportDirective {
	/** The path as written, trimmed (quotes removed). */
	written: string;
	line: number;
	column: number;
}

/** `\b` and no group right after the word: main.js must not hold the text of a dynamic import (a bundle test looks). */
const IMPORT = /^([ \t]*(?:#|\/\/)[ \t]*)@import\b[ \t]*(.*?)[ \t]*$/;

/**
 * Every `# @import` of the note's blocks, in note order. A directive applies to the whole note,
 * wherever it sits: the peers write it once at the top of a file, and a note is one file.
 */
export function noteImports(blocks: readonly NoteBlock[]): ImportDirective[] {
	const out: ImportDirective[] = [];
	for (const block of blocks) {
		// The lead before the request line only: `# @import` in a body is the body's text.
		for (const { text, index } of leadComments(block)) {
			const m = IMPORT.exec(text);
			if (!m) continue;
			const written = m[2].replace(/^(["'])(.*)\1$/, "$2").trim();
			out.push({ written, line: block.fence.startLine + 1 + index, column: block.fence.contentPrefix.length + m[1].length });
		}
	}
	return out;
}

/** A directive's place in messages: `line 3, column 3: # @import ./Auth.http`. */
export const importLabel = (d: ImportDirective): string => `line ${d.line + 1}, column ${d.column + 1}: @import ${d.written}`;

/** What an import path names: a vault path (absolute outside a vault), or why it names none. */
export type ImportTarget = { ok: true; path: string } | { ok: false; why: string };

const KNOWN_EXTENSION = /\.(md|http|rest)$/i;

/**
 * The file an import names, relative to the importing note's folder (as the peers read it
 * relative to the file): `./Auth.http`, `../shared/auth.rest`, `./Auth.md` or `./Auth` (a note:
 * `.md` is implied, as in links). Another extension, or a path above the vault, names nothing.
 */
export function importTarget(written: string, fromPath: string): ImportTarget {
	if (written === "") return { ok: false, why: "it names no file: write # @import ./other.http" };
	const extension = /\.([A-Za-z]+)$/.exec(written.slice(written.lastIndexOf("/") + 1))?.[1];
	if (extension !== undefined && !KNOWN_EXTENSION.test(`.${extension}`)) return { ok: false, why: `"${written}" is not a note (.md) or a .http/.rest file` };
	const file = extension === undefined ? `${written}.md` : written;
	const absolute = fromPath.startsWith("/");
	const folder = fromPath.includes("/") ? fromPath.slice(0, fromPath.lastIndexOf("/")) : "";
	const parts: string[] = [];
	for (const part of (file.startsWith("/") ? file : `${folder}/${file}`).split("/")) {
		if (part === "" || part === ".") continue;
		if (part !== "..") parts.push(part);
		else if (parts.pop() === undefined) return { ok: false, why: `"${written}" leads outside the vault` };
	}
	return { ok: true, path: `${absolute ? "/" : ""}${parts.join("/")}` };
}

/** Whether a path is a raw `.http`/`.rest` file rather than a note. */
export const isHttpFile = (path: string): boolean => /\.(http|rest)$/i.test(path);

/**
 * The blocks of an imported file: a note as it is, a `.http` file as `runnable-blocks import`
 * reads it (one block per `###` request, file variables in a fence of their own).
 */
export function blocksOfFile(path: string, text: string): NoteBlock[] {
	if (!isHttpFile(path)) return parseNote(text);
	return parseNote(httpFileToNote(text, path.slice(path.lastIndexOf("/") + 1)));
}
