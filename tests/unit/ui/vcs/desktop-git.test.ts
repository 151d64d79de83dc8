/** @jest-environment jsdom */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { App } from "obsidian";
import { FileSystemAdapter, Platform } from "../../../e2e/host/obsidian-shim";
import { desktopGit } from "../../../../src/ui/vcs/desktop-git";
import { GitRepository } from "../../../../src/vcs";
import { createGitWorld, write, type GitWorld } from "../../../support/git";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));
jest.setTimeout(30_000);

let world: GitWorld;
beforeAll(() => (world = createGitWorld()));
afterAll(() => world.cleanup());
beforeEach(() => (Platform.isDesktopApp = true));
afterEach(() => {
	Platform.isDesktopApp = false;
	delete (window as { scheduler?: unknown }).scheduler;
});

const appOver = (adapter: unknown) => ({ vault: { adapter, configDir: ".obsidian" } }) as unknown as App;

describe("desktopGit", () => {
	it("is null on mobile, where there is no git to run", () => {
		Platform.isDesktopApp = false;
		expect(desktopGit(appOver(new FileSystemAdapter(world.vault)))).toBeNull();
	});

	it("is null for a vault that is no folder on disk", () => {
		expect(desktopGit(appOver({ getBasePath: () => world.vault }))).toBeNull();
	});

	it("runs the system git in the vault's folder, and reads and writes its files", async () => {
		const git = desktopGit(appOver(new FileSystemAdapter(world.vault)))!;
		expect(git.config.cwd).toBe(world.vault);
		write(world.vault, "Ideas.md", "one\n");
		const repo = await GitRepository.open(git.config, git.fs);
		if (!repo.ok) throw new Error(repo.failure.detail);
		expect(repo.value.root).toBe(realpathSync(world.vault));
		const status = await repo.value.status();
		expect(status.ok && status.value.files.map((f) => f.path)).toEqual(["Ideas.md"]);
		await git.fs.writeText(join(world.vault, "Written.md"), "by the port\n");
		await expect(git.fs.readText(join(world.vault, "Written.md"))).resolves.toBe("by the port\n");
		await expect(git.fs.readText(join(world.vault, "Missing.md"))).resolves.toBeNull();
	});

	it("probes the processes through the platform's own means (Linux: /proc)", async () => {
		const git = desktopGit(appOver(new FileSystemAdapter(world.vault)))!;
		const found = await git.probe();
		if (process.platform === "linux") expect(Array.isArray(found)).toBe(true);
		else expect(found).toBe("unknown");
	});

	it("gives the UI its turns through scheduler.yield where there is one", () => {
		const turn = Promise.resolve();
		(window as { scheduler?: unknown }).scheduler = { yield: () => turn };
		const git = desktopGit(appOver(new FileSystemAdapter(world.vault)))!;
		expect(git.config.pause?.()).toBe(turn);
	});

	it("otherwise gives the UI a macrotask: queued microtasks run first", async () => {
		const git = desktopGit(appOver(new FileSystemAdapter(world.vault)))!;
		let done = false;
		const pause = git.config.pause!().then(() => (done = true));
		for (let i = 0; i < 10; i++) await Promise.resolve();
		expect(done).toBe(false);
		await pause;
		expect(done).toBe(true);
	});
});
