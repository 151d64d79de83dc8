/**
 * The conflict view in Chromium with 2,000 conflicting lines (issue 27): git through the desktop
 * bridge, as tests/e2e/vcs-bridge.test.ts. "Merge the remote" stops at the conflict, the merge
 * view shows the note, Take Remote writes the remote's lines, Mark resolved and Continue end the
 * merge. What it checks is what the view does; bench/vcs-conflict measures its longest task.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conflictingVault, git } from "../support/git";
import { launchHost, type Host } from "./support/host";

jest.setTimeout(180_000);

const LINES = 2000;
let host: Host;
let elsewhere: string;
const api = <T>(f: string): Promise<T> => host.page.evaluate<T>(`(async (h) => ${f})(window.__host)`);
/** Polls a condition on the test's side, a page frame between two looks (the plugin's git ends in the page's tasks). */
async function until(what: string, check: () => boolean, frames = 6000): Promise<void> {
	for (let i = 0; i < frames; i++) {
		if (check()) return;
		await host.page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
	}
	throw new Error(`timed out waiting for ${what}`);
}
const conflictNote = () => readFileSync(join(host.vaultDir, "Conflict.md"), "utf8");
const parents = () => git(host.vaultDir, "rev-list", "--parents", "-1", "HEAD").trim().split(" ").length - 1;
const remoteNote = Array.from({ length: LINES }, (_, i) => `remote ${i + 1}\n`).join("");

beforeAll(async () => {
	host = await launchHost({ desktopBridge: true });
	elsewhere = mkdtempSync(join(tmpdir(), "rb-e2e-conflict-"));
	conflictingVault(host.vaultDir, elsewhere, LINES);
	await api(`h.useDesktopBridge(${JSON.stringify(host.vaultDir)})`);
	await api("h.loadPlugin()");
});

afterAll(async () => {
	await host?.close();
	if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
});

it("shows a 2,000-line conflict in the merge view and resolves it with Take Remote, Mark resolved and Continue", async () => {
	await api(`h.runCommand("merge-remote")`);
	const modal = host.page.locator(".rb-vcs-conflict-modal");
	await modal.locator(".cm-mergeView .cm-content").first().waitFor({ timeout: 120_000 });
	await expect(modal.locator(".cm-mergeView .cm-editor").count()).resolves.toBe(2);
	const note = conflictNote();
	expect(note.split("\n").filter((l) => l.startsWith("local ")).length).toBe(LINES);
	expect(note).toContain("<<<<<<<");

	await modal.locator('[data-resolve="theirs"]').click();
	await until("the remote's lines in the note", () => conflictNote() === remoteNote);
	await modal.locator('[data-action="mark-resolved"]').click();
	await host.page.waitForFunction(() => document.querySelector(".rb-vcs-conflict-modal .modal-title")?.textContent === "All conflicts are resolved", undefined, { timeout: 60_000 });
	await modal.locator('[data-action="continue"]').click();
	await until("the merge commit", () => parents() === 2);
	expect(conflictNote()).toBe(remoteNote);
	expect(git(host.vaultDir, "status", "--porcelain")).toBe("");
});
