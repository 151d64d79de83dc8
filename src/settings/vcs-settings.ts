import { COMMIT_PLACEHOLDERS } from "../vcs/message";

/** The `[vcs]` table of user.toml (docs/vcs.md): the version-control panel's settings. */
export interface VcsSettings {
	/** The default commit message, with `{date}`, `{notes}` and `{count}`; "" for the built-in one. */
	commitTemplate: string;
}

export function defaultVcsSettings(): VcsSettings {
	return { commitTemplate: "" };
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
		} else {
			warn(k, `unknown key "${k}" is kept but ignored`);
		}
	}
}
