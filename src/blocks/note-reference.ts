/**
 * `{{[[Auth]]#login.response.body.$.token}}`: a reference to an aliased block of another note.
 * The wiki-link names the note as Obsidian links do (resolved by the host: `[[Auth]]` finds
 * Auth.md anywhere in the vault); what follows `#` is an ordinary alias path. Only the form is
 * read here; the runner finds the note, runs its block when needed and reads the result.
 */

export interface NoteAliasPath {
	/** The link as written between `[[` and `]]` (a note name or a vault path, `.md` optional). */
	link: string;
	/** What follows `#`: `alias.response.body.$.x` and the other alias paths (references.ts). */
	aliasPath: string;
}

export type NoteReferenceParse = { ok: true; reference: NoteAliasPath } | { ok: false; why: string };

/** The form a note reference takes, quoted in errors. */
export const NOTE_REFERENCE_FORM = "{{[[Note]]#alias.response.body.$.x}}";

/** Whether the inside of a reference starts like a note reference (then it is one, or an invalid one). */
export const isNoteHead = (inner: string): boolean => inner.startsWith("[[");

/** Characters Obsidian does not allow in a link target, and `|` (a display text has no place in a reference). */
const LINK_FORBIDDEN = /[[\]|^#\n]/;

/**
 * Splits a note reference into its link and alias path; a malformed one says what is wrong.
 * The alias path itself is checked by the caller, with the same rules as in-note references.
 */
export function parseNoteReference(inner: string): NoteReferenceParse {
	const close = inner.indexOf("]]");
	if (close === -1) return { ok: false, why: `the link has no closing "]]": write ${NOTE_REFERENCE_FORM}` };
	const link = inner.slice(2, close).trim();
	if (link === "") return { ok: false, why: `the link names no note: write ${NOTE_REFERENCE_FORM}` };
	if (link.includes("|")) return { ok: false, why: `a link in a reference has no display text: write [[${link.slice(0, link.indexOf("|")).trim()}]]` };
	if (link.includes("#")) return { ok: false, why: `the block's alias goes after the link: write [[${link.slice(0, link.indexOf("#")).trim()}]]#${link.slice(link.indexOf("#") + 1)}…` };
	if (LINK_FORBIDDEN.test(link)) return { ok: false, why: `"${link}" is not a note name (no [, ], |, ^ or #)` };
	const rest = inner.slice(close + 2);
	if (!rest.startsWith("#")) return { ok: false, why: `name a block of [[${link}]] after "#": write {{[[${link}]]#alias.response.body.$.x}}` };
	const aliasPath = rest.slice(1).trim();
	if (aliasPath === "") return { ok: false, why: `name a block of [[${link}]] after "#": write {{[[${link}]]#alias.response.body.$.x}}` };
	return { ok: true, reference: { link, aliasPath } };
}

/** The text of a note reference, for chains and messages: `[[Auth]]#login`. */
export const noteAliasLabel = (link: string, alias: string): string => `[[${link}]]#${alias}`;

/** Where a note reference's link is written: the text between `[[` and `]]`, as note offsets. */
export interface NoteLinkSpan {
	from: number;
	to: number;
	link: string;
}

/** The links of every note reference of these blocks (well-formed or not), in note order: what a rename rewrites. */
export function noteLinkSpans(blocks: ReadonlyArray<{ references: ReadonlyArray<{ text: string; inner: string; start: number }> }>): NoteLinkSpan[] {
	const spans: NoteLinkSpan[] = [];
	for (const b of blocks) {
		for (const r of b.references) {
			if (!isNoteHead(r.inner)) continue;
			const open = r.text.indexOf("[[");
			const close = r.text.indexOf("]]", open);
			if (close === -1) continue;
			spans.push({ from: r.start + open + 2, to: r.start + close, link: r.text.slice(open + 2, close).trim() });
		}
	}
	return spans;
}

/**
 * Whether a link written in the note at `fromPath` named the note at `path` (vault paths): its
 * name or path, `.md` optional, from the vault root, from the note's folder or as a path ending.
 * Case-insensitive, as Obsidian's links are. A rename asks it of the old path.
 */
export function linkNamesPath(link: string, fromPath: string, path: string): boolean {
	const wanted = (/\.md$/i.test(link) ? link : `${link}.md`).toLowerCase();
	const target = path.toLowerCase();
	const folder = fromPath.includes("/") ? fromPath.slice(0, fromPath.lastIndexOf("/") + 1).toLowerCase() : "";
	const relative = normalizePath(folder + wanted);
	// `./x` and `../x` are relative to the note's folder only: `../Auth` from a top folder is no vault path.
	if (/^\.\.?\//.test(wanted)) return target === relative;
	return target === normalizePath(wanted) || target === relative || target.endsWith(`/${wanted}`);
}

/** `a/./b/../c.md` → `a/c.md`. */
function normalizePath(path: string): string {
	const out: string[] = [];
	for (const part of path.split("/")) {
		if (part === "" || part === ".") continue;
		if (part === "..") out.pop();
		else out.push(part);
	}
	return out.join("/");
}
