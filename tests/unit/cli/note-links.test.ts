import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vaultNoteLinks } from "../../../src/cli/note-links";

let root: string;

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "rb-links-"));
	const files = ["Auth.md", "APIs/Auth.md", "APIs/Orders.md", "APIs/deep/Users.md", "Archive/old/Users.md", "Other/Users.md", ".obsidian/Hidden.md", "Notes/Readme.txt"];
	for (const f of files) {
		mkdirSync(join(root, f, ".."), { recursive: true });
		writeFileSync(join(root, f), "```http alias=x\nGET http://127.0.0.1:9/\n```\n");
	}
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("[[links]] in the CLI resolve as Obsidian resolves them", () => {
	it.each([
		["Auth", "APIs/Orders.md", "APIs/Auth.md", "a note of that name in the note's own folder first"],
		["Auth", "Other/Users.md", "Auth.md", "else the shortest path"],
		["Users", "Auth.md", "Other/Users.md", "the shortest path, then by name"],
		["deep/Users", "Auth.md", "APIs/deep/Users.md", "a path ending"],
		["APIs/Auth", "Other/Users.md", "APIs/Auth.md", "a vault path"],
		["./deep/Users", "APIs/Orders.md", "APIs/deep/Users.md", "a path from the note's folder"],
		["../Auth.md", "APIs/Orders.md", "Auth.md", "with its extension"],
		["auth", "Other/Users.md", "Auth.md", "case-insensitively"],
		["Hidden", "Auth.md", null, "never in a dot folder"],
		["Readme", "Auth.md", null, "notes only"],
		["Missing", "Auth.md", null, "null when there is no such note"],
	] as Array<[string, string, string | null, string]>)("[[%s]] from %s is %s: %s", (link, from, expected) => {
		expect(vaultNoteLinks(root).resolve(link, from)).toBe(expected);
	});

	it("reads the blocks of a vault path, and null for a note that cannot be read", async () => {
		const links = vaultNoteLinks(root);
		expect((await links.blocks("APIs/Auth.md"))?.map((b) => b.alias)).toEqual(["x"]);
		expect(await links.blocks("Gone.md")).toBeNull();
	});

	it("outside a vault, a link is a path from the note's folder", () => {
		const from = join(root, "APIs", "Orders.md");
		expect(vaultNoteLinks(null).resolve("Auth", from)).toBe(join(root, "APIs", "Auth.md"));
		expect(vaultNoteLinks(null).resolve("Users", from)).toBeNull();
	});
});
