import { discardNoteChanges } from "../../../../src/ui/vcs/discard-note";
import type { FileChange, VcsSession, VcsState } from "../../../../src/vcs";

/** A session stand-in over a vault inside the repository at `vault/`: its status as the test says, its discards recorded. */
function session(files: FileChange[], kind: VcsState["kind"] = "ready") {
	const discards: Array<[string, boolean]> = [];
	const state = { kind, snapshot: { status: { files } } } as unknown as VcsState;
	const s = {
		state,
		repository: { prefix: "vault/" },
		refresh: jest.fn(async () => undefined),
		discard: async (path: string, untracked: boolean) => void discards.push([path, untracked]),
	};
	return { s: s as unknown as VcsSession, refresh: s.refresh, discards };
}
const change = (path: string, xy: string): FileChange => ({ path, origPath: null, index: xy[0], worktree: xy[1] });

describe("discardNoteChanges (the palette's Discard changes to this note)", () => {
	it.each([
		[".M", false],
		["??", true],
		["MM", false],
	])("discards the work-tree side of a note whose status is %s (untracked: %s), after a fresh status", async (xy, untracked) => {
		const { s, refresh, discards } = session([change("vault/Plan.md", xy)]);
		await expect(discardNoteChanges(s, "Plan.md")).resolves.toBeNull();
		expect(refresh).toHaveBeenCalled();
		expect(discards).toEqual([["vault/Plan.md", untracked]]);
	});

	it.each([
		[[], "Plan.md has no changes to discard."],
		[[change("vault/Plan.md", "M.")], "The changes to Plan.md are staged: unstage them first to discard them."],
		[[change("vault/Plan.md", "UU")], "Resolve the conflicts in Plan.md: a conflict is never discarded."],
		[[change("Plan.md", ".M")], "Plan.md has no changes to discard."],
	])("refuses with the reason, discarding nothing: %j", async (files, notice) => {
		const { s, discards } = session(files);
		await expect(discardNoteChanges(s, "Plan.md")).resolves.toBe(notice);
		expect(discards).toEqual([]);
	});

	it("leaves a session with no repository to its own state (the caller reports it)", async () => {
		const { s, discards } = session([], "unavailable");
		await expect(discardNoteChanges(s, "Plan.md")).resolves.toBeNull();
		expect(discards).toEqual([]);
	});
});
