import { discardableChange, type VcsSession } from "../../vcs";
import { t } from "../strings";

const REFUSALS = { unchanged: "vcsDiscardNothing", staged: "vcsDiscardStaged", conflicted: "vcsDiscardConflicted" } as const;

/**
 * The palette's "Discard changes to this note" (docs/vcs.md): what the panel's Discard changes
 * button does to the note's row, after a fresh status (the panel may be closed). `notePath` is
 * vault-relative. Returns why nothing was discarded, as the notice to show; null when the session
 * ran the discard (or cannot, with its own state saying why).
 */
export async function discardNoteChanges(session: VcsSession, notePath: string): Promise<string | null> {
	await session.refresh();
	const s = session.state;
	if (s.kind !== "ready" || !session.repository) return null;
	const path = `${session.repository.prefix}${notePath}`;
	const change = discardableChange(s.snapshot.status.files, path);
	if (!change.ok) return t(REFUSALS[change.why], { path: notePath });
	await session.discard(path, change.untracked);
	return null;
}
