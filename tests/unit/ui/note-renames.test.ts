import { TFile, type App } from "obsidian";
import { Notes } from "../../../src/ui/notes";
import { isNote, rewriteNoteReferences } from "../../../src/ui/note-renames";

const note = (path: string): TFile => Object.assign(new TFile(), { path });

/** The vault after a rename: files by path, and Obsidian's resolution as far as these tests need it. */
interface FakeVault {
	app: App;
	texts: Map<string, string>;
	/** The paths vault.process rewrote, in order. */
	processed: string[];
	/** The notes whose text was read. */
	read: string[];
	/** fileToLinktext's calls: [file's path, source path, omitMdExtension]. */
	linktext: Array<[string, string, boolean | undefined]>;
}

/**
 * `getFirstLinkpathDest` finds a note by path (`.md` optional) or path ending, case-insensitively;
 * `fileToLinktext` gives the renamed note's name from its own folder, its vault path elsewhere.
 * `edit` changes a note between the read and vault.process (another writer).
 */
function vault(files: Record<string, string>, edit: (path: string, text: string) => string = (_, text) => text): FakeVault {
	const texts = new Map(Object.entries(files));
	const processed: string[] = [];
	const read: string[] = [];
	const linktext: FakeVault["linktext"] = [];
	const files_ = () => [...texts.keys()].filter((p) => p.endsWith(".md")).map(note);
	const folder = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "");
	const app = {
		vault: {
			getMarkdownFiles: files_,
			cachedRead: async (file: TFile) => {
				read.push(file.path);
				return texts.get(file.path) ?? "";
			},
			process: async (file: TFile, fn: (data: string) => string) => {
				processed.push(file.path);
				const out = fn(edit(file.path, texts.get(file.path) ?? ""));
				texts.set(file.path, out);
				return out;
			},
		},
		metadataCache: {
			getFirstLinkpathDest: (link: string, _from: string) => {
				const wanted = (/\.md$/i.test(link) ? link : `${link}.md`).toLowerCase();
				return files_().find((f) => f.path.toLowerCase() === wanted || f.path.toLowerCase().endsWith(`/${wanted}`)) ?? null;
			},
			fileToLinktext: (file: TFile, sourcePath: string, omitMdExtension?: boolean) => {
				linktext.push([file.path, sourcePath, omitMdExtension]);
				const name = file.path.replace(/\.md$/, "");
				return folder(sourcePath) === folder(file.path) ? name.slice(folder(file.path).length) : name;
			},
		},
	} as unknown as App;
	return { app, texts, processed, read, linktext };
}

const rename = (v: FakeVault, newPath: string, oldPath: string) => rewriteNoteReferences(v.app, new Notes(v.app), note(newPath), oldPath);

const AUTH = "```http alias=login\nPOST https://auth.test/login\n```\n";

describe("rewriteNoteReferences (mostly Auth.md renamed to APIs/Login.md)", () => {
	const ORDERS = [
		"# Orders",
		"",
		"Prose links are Obsidian's to update: [[Auth]], and {{[[Auth]]#login.response.status}} outside code.",
		"",
		"```http alias=list",
		"GET https://api.test/orders?u={{[[Users]]#me.response.body.$.id}}&s={{[[Author]]#x.response.status}}",
		"Authorization: Bearer {{[[Auth]]#login.response.body.$.token}}",
		"X-Same: {{ [[ auth.md ]]#login.response.headers.X-Id }}-{{list.response.status}}-{{[[Auth]]#login.response.status}}",
		"```",
		"",
		"Trailing [[Auth]] text.",
		"",
	].join("\n");

	it("rewrites only the links of the references to the old path that no longer resolve, leaving every other byte", async () => {
		const v = vault({ "APIs/Login.md": AUTH, "Users.md": "```http alias=me\nGET https://x.test\n```\n", "Orders.md": ORDERS });
		const changed = await rename(v, "APIs/Login.md", "Auth.md");
		expect(changed).toBe(3);
		expect(v.texts.get("Orders.md")).toBe(
			[
				"# Orders",
				"",
				"Prose links are Obsidian's to update: [[Auth]], and {{[[Auth]]#login.response.status}} outside code.",
				"",
				"```http alias=list",
				"GET https://api.test/orders?u={{[[Users]]#me.response.body.$.id}}&s={{[[Author]]#x.response.status}}",
				"Authorization: Bearer {{[[APIs/Login]]#login.response.body.$.token}}",
				"X-Same: {{ [[APIs/Login]]#login.response.headers.X-Id }}-{{list.response.status}}-{{[[APIs/Login]]#login.response.status}}",
				"```",
				"",
				"Trailing [[Auth]] text.",
				"",
			].join("\n"),
		);
		// Only the referring note goes through vault.process, once; the link text is asked from its path, without `.md`.
		expect(v.processed).toEqual(["Orders.md"]);
		expect(v.linktext).toEqual([["APIs/Login.md", "Orders.md", true]]);
		expect(v.texts.get("APIs/Login.md")).toBe(AUTH);
	});

	it("counts the references of every note, each with the link text from its own folder", async () => {
		const inFolder = "```http alias=o\nGET https://x.test/{{[[Auth]]#login.response.body.$.id}}\n```\n";
		const elsewhere = "```http alias=p\nGET https://x.test/{{[[Team/Auth]]#login.response.status}}/{{[[Auth.md]]#login.response.status}}\n```\n";
		const v = vault({ "APIs/Login.md": AUTH, "APIs/Orders.md": inFolder, "Team/Sub/Pay.md": elsewhere });
		expect(await rename(v, "APIs/Login.md", "Auth.md")).toBe(2);
		expect(v.texts.get("APIs/Orders.md")).toBe("```http alias=o\nGET https://x.test/{{[[Login]]#login.response.body.$.id}}\n```\n");
		// `Team/Auth` named another note (none now), never the old Auth.md: left as written though it resolves to nothing.
		expect(v.texts.get("Team/Sub/Pay.md")).toBe("```http alias=p\nGET https://x.test/{{[[Team/Auth]]#login.response.status}}/{{[[APIs/Login]]#login.response.status}}\n```\n");
		expect(v.processed.sort()).toEqual(["APIs/Orders.md", "Team/Sub/Pay.md"]);
	});

	it("leaves a link that still resolves (another note of the old name) as written, and processes nothing", async () => {
		const refers = "```http alias=o\nGET https://x.test/{{[[Auth]]#login.response.status}}\n```\n";
		const v = vault({ "APIs/Login.md": AUTH, "Other/Auth.md": AUTH, "Orders.md": refers });
		expect(await rename(v, "APIs/Login.md", "Auth.md")).toBe(0);
		expect(v.processed).toEqual([]);
		expect(v.texts.get("Orders.md")).toBe(refers);
	});

	it("does not touch notes without a stale reference: none at all, other notes', or the old name outside code", async () => {
		const files = {
			"APIs/Login.md": AUTH,
			"Plain.md": "No references here, only [[Auth]].\n",
			"Users.md": "```http alias=me\nGET https://x.test/{{[[Plain]]#a.response.status}}\n```\n",
			"Prose.md": "Written in prose: {{[[Auth]]#login.response.status}}\n",
		};
		const v = vault(files);
		expect(await rename(v, "APIs/Login.md", "Auth.md")).toBe(0);
		expect(v.processed).toEqual([]);
		expect(v.linktext).toEqual([]);
		expect(Object.fromEntries(v.texts)).toEqual(files);
	});

	it("rewrites the text as it is when processed, not as it was read", async () => {
		const read = "```http alias=o\nGET https://x.test/{{[[Auth]]#login.response.status}}\n```\n";
		const inserted = "Edited meanwhile {{[[Auth]]#login.response.status}}\n\n```http alias=n\nGET https://y.test/{{[[Auth]]#login.response.body.$.token}}\n```\n\n";
		const v = vault({ "APIs/Login.md": AUTH, "Orders.md": read }, (path, text) => (path === "Orders.md" ? inserted + text : text));
		expect(await rename(v, "APIs/Login.md", "Auth.md")).toBe(2);
		expect(v.texts.get("Orders.md")).toBe(
			"Edited meanwhile {{[[Auth]]#login.response.status}}\n\n```http alias=n\nGET https://y.test/{{[[APIs/Login]]#login.response.body.$.token}}\n```\n\n" +
				"```http alias=o\nGET https://x.test/{{[[APIs/Login]]#login.response.status}}\n```\n",
		);
	});

	it("rewrites a move the same way: a vault path that named the old place, while a name that still resolves stays", async () => {
		const refers = "```http alias=o\nGET https://x.test/{{[[APIs/Auth]]#login.response.status}}?{{[[Auth]]#login.response.body.$.x}}\n```\n";
		const v = vault({ "Archive/Auth.md": AUTH, "Orders.md": refers });
		expect(await rename(v, "Archive/Auth.md", "APIs/Auth.md")).toBe(1);
		expect(v.texts.get("Orders.md")).toBe("```http alias=o\nGET https://x.test/{{[[Archive/Auth]]#login.response.status}}?{{[[Auth]]#login.response.body.$.x}}\n```\n");
	});
});

describe("isNote", () => {
	it("is a markdown file, nothing else", () => {
		expect(isNote(note("APIs/Auth.md"))).toBe(true);
		expect(isNote(note("Board.canvas"))).toBe(false);
		expect(isNote({ path: "Fake.md" })).toBe(false);
		expect(isNote(null)).toBe(false);
	});
});
