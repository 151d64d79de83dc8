import { Notice, TFile, type App } from "obsidian";
import type { NoteBlock } from "../../../src/blocks";
import { Notes } from "../../../src/ui/notes";
import { obsidianNoteLinks, openNoteAtAlias } from "../../../src/ui/note-links";

const note = (path: string): TFile => Object.assign(new TFile(), { path });
const shown = (Notice as unknown as { shown: string[] }).shown;

const AUTH = ["# Auth", "", "```http alias=token", "POST https://auth.test/token", "```", "", "Then:", "", "```http alias=login", "POST https://auth.test/login", "```", ""].join("\n");

interface Fake {
	app: App;
	/** getFirstLinkpathDest's calls: [link, source path]. */
	lookups: Array<[string, string]>;
	/** The files opened, with their open state. */
	opened: Array<{ path: string; state: unknown }>;
	getLeaf: jest.Mock;
}

/**
 * A vault of `files` (null: a folder, an object that is not a TFile), no open editor, and a link
 * table standing in for Obsidian's resolution: `links[link]` is the path it finds, from anywhere.
 */
function fakeApp(files: Record<string, string | null>, links: Record<string, string>, active: string | null = "Orders.md"): Fake {
	const lookups: Fake["lookups"] = [];
	const opened: Fake["opened"] = [];
	const getLeaf = jest.fn((_newLeaf?: boolean) => ({
		openFile: async (file: TFile, state?: unknown) => {
			opened.push({ path: file.path, state });
		},
	}));
	const app = {
		vault: {
			getAbstractFileByPath: (path: string) => (!(path in files) ? null : files[path] === null ? { path, children: [] } : note(path)),
			cachedRead: async (file: TFile) => files[file.path] ?? "",
		},
		metadataCache: {
			getFirstLinkpathDest: (link: string, from: string) => {
				lookups.push([link, from]);
				return link in links ? note(links[link]) : null;
			},
		},
		workspace: {
			getLeavesOfType: () => [],
			getActiveFile: () => (active === null ? null : note(active)),
			getLeaf,
		},
	} as unknown as App;
	return { app, lookups, opened, getLeaf };
}

beforeEach(() => {
	shown.length = 0;
});

describe("obsidianNoteLinks", () => {
	it("resolves a link as Obsidian does, from the referring note, to the note's vault path", () => {
		const fake = fakeApp({ "APIs/Auth.md": AUTH }, { Auth: "APIs/Auth.md", "APIs/Auth": "APIs/Auth.md" });
		const links = obsidianNoteLinks(fake.app, new Notes(fake.app));
		expect(links.resolve("Auth", "Team/Orders.md")).toBe("APIs/Auth.md");
		expect(links.resolve("APIs/Auth", "Orders.md")).toBe("APIs/Auth.md");
		expect(links.resolve("Missing", "Team/Orders.md")).toBeNull();
		expect(fake.lookups).toEqual([
			["Auth", "Team/Orders.md"],
			["APIs/Auth", "Orders.md"],
			["Missing", "Team/Orders.md"],
		]);
	});

	it("reads the blocks of the other note", async () => {
		const fake = fakeApp({ "APIs/Auth.md": AUTH }, {});
		const blocks = await obsidianNoteLinks(fake.app, new Notes(fake.app)).blocks("APIs/Auth.md");
		expect(blocks?.map((b) => [b.alias, b.fence.startLine])).toEqual([
			["token", 2],
			["login", 8],
		]);
	});

	it("is null for a path that is no note: missing, or a folder", async () => {
		const fake = fakeApp({ APIs: null }, {});
		const asked: string[] = [];
		const notes = {
			blocks: async (path: string) => {
				asked.push(path);
				return [];
			},
		} as unknown as Notes;
		const links = obsidianNoteLinks(fake.app, notes);
		expect(await links.blocks("Gone.md")).toBeNull();
		expect(await links.blocks("APIs")).toBeNull();
		expect(asked).toEqual([]);
	});

	it("reads the blocks through the Notes service (the open editor's, unsaved, when it has the note)", async () => {
		const fake = fakeApp({ "APIs/Auth.md": AUTH }, {});
		const unsaved = [{ alias: "edited" }] as unknown as NoteBlock[];
		const notes = { blocks: async (path: string) => (path === "APIs/Auth.md" ? unsaved : []) } as unknown as Notes;
		expect(await obsidianNoteLinks(fake.app, notes).blocks("APIs/Auth.md")).toBe(unsaved);
	});
});

describe("openNoteAtAlias", () => {
	it("opens the linked note, resolved from the active note, in the current tab with the cursor on the block's fence", async () => {
		const fake = fakeApp({ "APIs/Auth.md": AUTH }, { Auth: "APIs/Auth.md" }, "Team/Orders.md");
		await openNoteAtAlias(fake.app, new Notes(fake.app), "Auth", "login");
		expect(fake.lookups).toEqual([["Auth", "Team/Orders.md"]]);
		expect(fake.getLeaf).toHaveBeenCalledWith(false);
		expect(fake.opened).toEqual([{ path: "APIs/Auth.md", state: { eState: { line: 8 } } }]);
		expect(shown).toEqual([]);
	});

	it("opens at the top for an alias the note does not have", async () => {
		const fake = fakeApp({ "APIs/Auth.md": AUTH }, { Auth: "APIs/Auth.md" });
		await openNoteAtAlias(fake.app, new Notes(fake.app), "Auth", "logout");
		expect(fake.opened).toEqual([{ path: "APIs/Auth.md", state: { eState: { line: 0 } } }]);
	});

	it("resolves from the vault root without an active note", async () => {
		const fake = fakeApp({ "APIs/Auth.md": AUTH }, { Auth: "APIs/Auth.md" }, null);
		await openNoteAtAlias(fake.app, new Notes(fake.app), "Auth", "token");
		expect(fake.lookups).toEqual([["Auth", ""]]);
		expect(fake.opened).toEqual([{ path: "APIs/Auth.md", state: { eState: { line: 2 } } }]);
	});

	it("says so, and opens nothing, when no note has that name", async () => {
		const fake = fakeApp({ "APIs/Auth.md": AUTH }, { Auth: "APIs/Auth.md" });
		await openNoteAtAlias(fake.app, new Notes(fake.app), "Missing", "login");
		expect(shown).toEqual(["Runnable Blocks: No note [[Missing]] in the vault."]);
		expect(fake.getLeaf).not.toHaveBeenCalled();
		expect(fake.opened).toEqual([]);
	});
});
