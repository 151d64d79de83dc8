import { Notice, TFile, type App } from "obsidian";
import { obsidianNoteProperties } from "../../../src/ui/note-properties";

/** An app whose vault holds one note with this front matter; processFrontMatter edits it as Obsidian's does (or fails). */
function appWith(front: Record<string, unknown> | undefined, fail?: Error) {
	const file = Object.assign(new TFile(), { path: "n.md" });
	let stored = front ? { ...front } : undefined;
	const app = {
		vault: { getAbstractFileByPath: (path: string) => (path === "n.md" ? file : null) },
		metadataCache: { getFileCache: (f: TFile) => (f === file ? { frontmatter: stored } : null) },
		fileManager: {
			processFrontMatter: async (f: TFile, edit: (front: Record<string, unknown>) => void) => {
				if (fail) throw fail;
				const next = { ...(stored ?? {}) };
				edit(next);
				stored = next;
			},
		},
	} as unknown as App;
	return { app, front: () => stored };
}

describe("the plugin's note properties", () => {
	it("reads the metadata cache's front matter, a copy; a note without one has none; a missing note is undefined", () => {
		const { app } = appWith({ region: "eu", n: 2 });
		const port = obsidianNoteProperties(app);
		expect(port.read("n.md")).toEqual({ region: "eu", n: 2 });
		expect(obsidianNoteProperties(appWith(undefined).app).read("n.md")).toEqual({});
		expect(port.read("gone.md")).toBeUndefined();
	});

	it("writes through processFrontMatter, setting only the named properties, their types kept", async () => {
		const { app, front } = appWith({ region: "eu", price: 1 });
		await obsidianNoteProperties(app).write("n.md", { price: 12.5, tags: ["a"], open: true });
		expect(front()).toEqual({ region: "eu", price: 12.5, tags: ["a"], open: true });
	});

	it("says so when the write fails, or the note is gone", async () => {
		const shown = (Notice as unknown as { shown: string[] }).shown;
		const before = shown.length;
		await obsidianNoteProperties(appWith({}, new Error("YAML is broken")).app).write("n.md", { a: 1 });
		await obsidianNoteProperties(appWith({}).app).write("gone.md", { a: 1 });
		expect(shown.slice(before)).toEqual(["Runnable Blocks: Could not set the properties of n.md: YAML is broken", "Runnable Blocks: Could not set the properties of gone.md: the note is not in the vault"]);
	});
});
