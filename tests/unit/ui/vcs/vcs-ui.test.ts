/** @jest-environment jsdom */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { App } from "obsidian";
import { FileSystemAdapter, Platform } from "../../../e2e/host/obsidian-shim";
import { createVcsSession } from "../../../../src/ui/vcs/vcs-ui";
import { createGitWorld, write, type GitWorld } from "../../../support/git";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));
jest.setTimeout(30_000);

let world: GitWorld;
beforeAll(() => (world = createGitWorld()));
afterAll(() => world.cleanup());
beforeEach(() => (Platform.isDesktopApp = true));
afterEach(() => (Platform.isDesktopApp = false));

const appAt = (dir: string) => ({ vault: { adapter: new FileSystemAdapter(dir), configDir: ".config" } }) as unknown as App;

describe("createVcsSession", () => {
	it("is null where git cannot run (mobile)", () => {
		Platform.isDesktopApp = false;
		expect(createVcsSession(appAt(world.vault), ".config/plugins/rb/history.sqlite", () => "")).toBeNull();
	});

	it("opens the vault's repository, and proposes the template's message for its changes", async () => {
		write(world.vault, "Ideas.md", "one\n");
		const session = createVcsSession(appAt(world.vault), ".config/plugins/rb/history.sqlite", () => "Saved {notes}")!;
		await session.refresh();
		const s = session.state;
		expect(s.kind === "ready" && s.snapshot.status.files.map((f) => f.path)).toEqual(["Ideas.md"]);
		expect(s.kind === "ready" && s.commits.map((c) => c.subject)).toEqual(["First note"]);
		expect(session.defaultMessage()).toBe("Saved Ideas");
		session.close();
	});

	it("offers to initialise a folder that is no repository, ignoring Obsidian's workspace files and the run history", async () => {
		const plain = mkdtempSync(join(tmpdir(), "rb-vcs-plain-"));
		try {
			const session = createVcsSession(appAt(plain), ".config/plugins/rb/history.sqlite", () => "")!;
			await session.refresh();
			expect(session.state).toMatchObject({ kind: "unavailable", failure: { code: "not_repository" } });
			await session.initialise();
			expect(session.state.kind).toBe("ready");
			expect(readFileSync(join(plain, ".gitignore"), "utf8").split("\n")).toEqual([
				".config/workspace*.json",
				".config/workspace-mobile.json",
				".config/plugins/rb/history.sqlite",
				".trash/",
				"",
			]);
			session.close();
		} finally {
			rmSync(plain, { recursive: true, force: true });
		}
	});
});
