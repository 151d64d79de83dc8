import { COMMIT_PLACEHOLDERS } from "../vcs/message";

/** The `[vcs]` table of user.toml (docs/vcs.md): the version-control panel's settings. */
export interface VcsSettings {
	/** The default commit message, with `{date}`, `{notes}` and `{count}`; "" for the built-in one. */
	commitTemplate: string;
	/** Auto-sync every N minutes; 0 (the default) is off. */
	autoSyncMinutes: number;
}

export function defaultVcsSettings(): VcsSettings {
	return { commitTemplate: "", autoSyncMinutes: 0 };
}

type Report = (key: string, message: string) => void;

const show = (v: unknown) => JSON.stringify(v instanceof Date ? v.toISOString() : v);
const known = COMMIT_PLACEHOLDERS.map((p) => `{${p}}`).join(", ");

/** Why a commit template is refused, or null when it is usable. */
export function commitTemplateProblem(template: string): string | null {
	if (template.trim() === "") return `must not be empty (remove the key for the default message)`;
	for (const m of template.matchAll(/\{([^{}]*)\}/g)) {
		if (!(COMMIT_PLACEHOLDERS as readonly string[]).includes(m[1])) return `unknown placeholder {${m[1]}} (known: ${known})`;
	}
	return null;
}

/**
 * Reads `[vcs]` into `out`: an invalid value is an error for its key only (the default stays), an
 * unknown key a warning. `error`/`warn` take the key inside `[vcs]`; the caller adds the position.
 */
export function parseVcsTable(table: Record<string, unknown>, out: VcsSettings, error: Report, warn: Report): void {
	for (const [k, v] of Object.entries(table)) {
		if (k === "commit_template") {
			if (typeof v !== "string") {
				error(k, `must be a string such as "Notes {date}: {notes}" (got ${show(v)})`);
				continue;
			}
			const problem = commitTemplateProblem(v);
			if (problem) error(k, problem);
			else out.commitTemplate = v;
		} else if (k === "auto_sync_minutes") {
			const n = typeof v === "bigint" ? Number(v) : v;
			if (typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 24 * 60) out.autoSyncMinutes = n;
			else error(k, `must be a whole number of minutes from 1 to 1440, or 0 for off (got ${show(typeof v === "bigint" ? Number(v) : v)})`);
		} else {
			warn(k, `unknown key "${k}" is kept but ignored`);
		}
	}
}
