/** @jest-environment jsdom */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Plugin as ObsidianPlugin } from "obsidian";
import { installDomHelpers, notices, Platform, Plugin, TFile } from "../../../e2e/host/obsidian-shim";
import { registerVcs, type VcsWiring } from "../../../../src/ui/vcs/register";
import { VCS_VIEW_TYPE } from "../../../../src/ui/vcs/vcs-view-type";
import { createGitWorld, git, read, write, type GitWorld } from "../../../support/git";
import { until, workspaceApp } from "../../../support/vcs-session";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));
jest.setTimeout(60_000);

installDomHelpers();

let world: GitWorld;
beforeAll(() => {
	world = createGitWorld();
	// The plugin's git runs with the process's environment, which has no identity here: the repository carries one.
	git(world.vault, "config", "user.name", "Command Tester");
	git(world.vault, "config", "user.email", "command@example.test");
});
afterAll(() => world.cleanup());
afterEach(() => {
	Platform.isDesktopApp = false;
	notices.length = 0;
	document.body.empty();
});

/** The plugin with the version-control panel registered over the folder, its settings as the test says. */
function registered(dir: string, settings: { minutes?: number; template?: string } = {}) {
	const plugin = new Plugin(null, { id: "runnable-blocks" });
	const ws = workspaceApp(dir, plugin.views);
	plugin.app = ws.app;
	const settingsListeners: Array<() => void> = [];
	const wiring: VcsWiring = {
		pluginDir: ".obsidian/plugins/runnable-blocks",
		chord: () => undefined,
		preset: () => "obsidian",
		onKeymapChange: () => () => undefined,
		commitTemplate: () => settings.template ?? "",
		autoSyncMinutes: () => settings.minutes ?? 0,
		onSettingsChange: (listener) => {
			settingsListeners.push(listener);
			return () => settingsListeners.splice(settingsListeners.indexOf(listener), 1);
		},
	};
	plugin.load();
	const vcs = registerVcs(plugin as unknown as ObsidianPlugin, wiring);
	const command = (id: string) => plugin.commands.find((c) => c.id === id)!;
	const offered = (id: string) => command(id).checkCallback!(true) === true;
	const run = (id: string) => (command(id).callback ? command(id).callback!() : command(id).checkCallback!(false));
	const statusItem = () => document.querySelector<HTMLElement>(".status-bar-item")!;
	return { plugin, ws, vcs, command, offered, run, statusItem, settingsChanged: () => settingsListeners.forEach((f) => f()) };
}
const noticed = (text: string) => until(() => expect(notices).toContain(`Runnable Blocks: ${text}`));

describe("registerVcs", () => {
	it("registers the panel's view and its palette commands, none run before asked", () => {
		const r = registered(world.vault);
		expect([...r.plugin.views.keys()]).toEqual([VCS_VIEW_TYPE]);
		expect(r.plugin.commands.map((c) => [c.id, c.name])).toEqual([
			["open-version-control", "Open version control"],
			["commit-all-changes", "Commit all changes"],
			["switch-branch", "Switch branch…"],
			["create-branch", "Create branch…"],
			["undo-last-vcs-change", "Undo last version-control change"],
			["pull-vault-repository", "Pull (fast-forward only)"],
			["merge-remote", "Merge the remote"],
			["rebase-onto-remote", "Rebase my commits onto the remote"],
			["resolve-conflicts", "Resolve conflicts"],
			["show-note-history", "Show history of this note"],
			["discard-note-changes", "Discard changes to this note"],
			["resume-auto-sync", "Resume auto-sync"],
		]);
		expect(r.statusItem().style.display).toBe("none");
	});

	it("on mobile offers no repository command, and sync and the panel say git needs the desktop app", async () => {
		const r = registered(world.vault);
		expect(r.offered("commit-all-changes")).toBe(false);
		expect(r.offered("show-note-history")).toBe(false);
		r.vcs.sync();
		await noticed("Version control needs the desktop app: it runs the git installed on your computer.");
		r.run("open-version-control");
		await until(() => expect(document.querySelector(".rb-vcs .rb-vcs-empty")?.textContent).toBe("Version control needs the desktop app: it runs the git installed on your computer."));
	});

	it("opens the panel in the right sidebar once, revealing it again on the next call", async () => {
		Platform.isDesktopApp = true;
		write(world.vault, "Panel.md", "p\n");
		const r = registered(world.vault);
		r.run("open-version-control");
		await until(() => expect(document.querySelector('.rb-vcs-file[data-path="Panel.md"]')).not.toBeNull());
		r.run("open-version-control");
		await until(() => expect(r.ws.revealed).toHaveLength(2));
		expect(r.ws.leaves).toHaveLength(1);
		expect(r.ws.revealed[1]).toBe(r.ws.leaves[0]);
		document.querySelector<HTMLElement>('.rb-vcs-file[data-path="Panel.md"] .rb-vcs-name')!.click();
		expect(r.ws.opened).toEqual(["Panel.md"]);
		r.ws.leaves[0].detach();
		r.plugin.unload();
		rmSync(join(world.vault, "Panel.md"));
	});

	it("commits every change from the palette with the template, and says which commit", async () => {
		Platform.isDesktopApp = true;
		write(world.vault, "Palette.md", "from the palette\n");
		const r = registered(world.vault, { template: "Saved {notes}" });
		expect(r.offered("commit-all-changes")).toBe(true);
		r.run("commit-all-changes");
		const hash = () => git(world.vault, "rev-parse", "--short", "HEAD").trim();
		await until(() => expect(git(world.vault, "log", "-1", "--format=%s").trim()).toBe("Saved Palette"));
		await noticed(`Committed ${hash()}`);
		r.plugin.unload();
	});

	it("shows the active note's history, and asks for a note when none is open", async () => {
		Platform.isDesktopApp = true;
		const r = registered(world.vault);
		r.run("show-note-history");
		await noticed("Open a note first.");
		r.ws.active = new TFile("Welcome.md");
		r.run("show-note-history");
		await until(() => expect(document.querySelector(".modal-title")?.textContent).toBe("History of Welcome.md"));
		await until(() => expect(document.querySelectorAll(".rb-vcs-history-row")).toHaveLength(1));
		r.plugin.unload();
	});

	it("discards the active note's changes and says how to undo that", async () => {
		Platform.isDesktopApp = true;
		write(world.vault, "Welcome.md", "# Welcome\nan edit to drop\n");
		const r = registered(world.vault);
		r.ws.active = new TFile("Welcome.md");
		r.run("discard-note-changes");
		await noticed("Discarded the changes to Welcome.md. Undo last discard brings them back.");
		expect(read(world.vault, "Welcome.md")).toBe("# Welcome\n");
		r.plugin.unload();
	});

	it("in a folder that is no repository says so, then offers no repository command", async () => {
		Platform.isDesktopApp = true;
		const plain = mkdtempSync(join(tmpdir(), "rb-vcs-plain-"));
		try {
			const r = registered(plain);
			expect(r.offered("pull-vault-repository")).toBe(true);
			r.run("pull-vault-repository");
			await until(() => expect(r.offered("pull-vault-repository")).toBe(false));
			expect(notices.at(-1)).toMatch(/^Runnable Blocks: .*not a git repository/i);
			r.plugin.unload();
		} finally {
			rmSync(plain, { recursive: true, force: true });
		}
	});

	it("starts auto-sync once the layout is ready when minutes are set, and stops it when they go back to 0", () => {
		Platform.isDesktopApp = true;
		const settings = { minutes: 5 };
		const r = registered(world.vault, settings);
		expect(r.statusItem().style.display).toBe("none");
		r.ws.layoutReady.forEach((f) => f());
		expect(r.statusItem().style.display).toBe("");
		expect(r.statusItem().textContent).toMatch(/^Auto-sync: next at /);
		expect(r.offered("resume-auto-sync")).toBe(false);
		settings.minutes = 0;
		r.settingsChanged();
		expect(r.statusItem().style.display).toBe("none");
		r.plugin.unload();
	});
});
