import { classifyGitError } from "../../../src/vcs/failures";

describe("classifyGitError", () => {
	it.each([
		["fatal: not a git repository (or any of the parent directories): .git", "not_repository"],
		["fatal: Unable to create '/v/.git/index.lock': File exists.\n\nAnother git process seems to be running", "index_locked"],
		["Author identity unknown\n\n*** Please tell me who you are.", "identity_missing"],
		["error: You have not concluded your merge (MERGE_HEAD exists).", "merge_in_progress"],
		["error: Your local changes to the following files would be overwritten by checkout:\n\tWelcome.md", "local_changes_block"],
		["fatal: Not possible to fast-forward, aborting.", "diverged"],
		[" ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to '/r.git'", "push_rejected"],
		[" ! [remote rejected] main -> main (pre-receive hook declined)", "push_rejected"],
		["fatal: The current branch topic has no upstream branch.", "no_upstream"],
		["fatal: No configured push destination.", "no_remote"],
		["fatal: Authentication failed for 'https://example.com/r.git/'", "auth_failed"],
		["fatal: could not read Username for 'https://example.com': terminal prompts disabled", "auth_failed"],
		["fatal: unable to access 'https://example.com/': Could not resolve host: example.com", "network_failed"],
		["error: Committing is not possible because you have unmerged files.", "conflicts"],
		["nothing to commit, working tree clean", "nothing_to_commit"],
		["fatal: 'bad..name' is not a valid branch name", "invalid_branch_name"],
		["fatal: a branch named 'x' already exists", "branch_exists"],
		["fatal: your current branch 'main' does not have any commits yet", "no_commits"],
		["fatal: something new", "git_failed"],
	])("reads %j as %s", (stderr, code) => expect(classifyGitError(stderr).code).toBe(code));

	it("keeps git's last lines without hints as the detail, and the lock path", () => {
		const f = classifyGitError("hint: try this\nfatal: Unable to create '/v/.git/index.lock': File exists.\n");
		expect(f).toMatchObject({ detail: "fatal: Unable to create '/v/.git/index.lock': File exists.", lockPath: "/v/.git/index.lock" });
	});
});
