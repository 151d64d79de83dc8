/** The default commit message: a template with the date and the names of the changed notes. */

export const DEFAULT_COMMIT_TEMPLATE = "Vault update {date}: {notes}";

/** The placeholders a template may use (user.toml `[vcs] commit_template`, validated against these). */
export const COMMIT_PLACEHOLDERS = ["date", "notes", "count"] as const;

/** How many note names the message lists before "and N more". */
const NAMES_SHOWN = 5;

/** `2026-11-25 09:43`, in the local time zone the clock reports. */
export function formatCommitDate(d: Date): string {
	const p = (n: number) => String(n).padStart(2, "0");
	return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A file's name as a note title: the last path part, without `.md`. */
export function noteName(path: string): string {
	const base = path.slice(path.lastIndexOf("/") + 1);
	return base.replace(/\.md$/i, "");
}

/**
 * Fills `{date}`, `{notes}` and `{count}`. Unknown placeholders stay as written, so a typo in the
 * user's template shows in the message rather than vanishing.
 */
export function commitMessage(template: string, paths: readonly string[], now: Date): string {
	const names = [...new Set(paths.map(noteName))];
	const shown = names.slice(0, NAMES_SHOWN).join(", ");
	const notes = names.length > NAMES_SHOWN ? `${shown} and ${names.length - NAMES_SHOWN} more` : shown;
	const vars: Record<string, string> = { date: formatCommitDate(now), notes: notes || "no files", count: String(paths.length) };
	return template.replace(/\{(\w+)\}/g, (m, name: string) => vars[name] ?? m).trim();
}
