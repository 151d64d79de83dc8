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
