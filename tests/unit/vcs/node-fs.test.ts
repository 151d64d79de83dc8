import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeVcsFs } from "../../../src/vcs/node-fs";

const files = createNodeVcsFs(fsp);
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "rb-vcs-fs-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("createNodeVcsFs", () => {
	it("tells whether a file or folder exists", async () => {
		writeFileSync(join(dir, "note.md"), "x");
		expect(await files.exists(join(dir, "note.md"))).toBe(true);
		expect(await files.exists(dir)).toBe(true);
		expect(await files.exists(join(dir, "missing.md"))).toBe(false);
	});

	it("reads text as UTF-8, and null for a missing file or a folder", async () => {
		writeFileSync(join(dir, "note.md"), "ünïcödé ✓\n");
		mkdirSync(join(dir, "rebase-merge"));
		expect(await files.readText(join(dir, "note.md"))).toBe("ünïcödé ✓\n");
		expect(await files.readText(join(dir, "missing.md"))).toBeNull();
		expect(await files.readText(join(dir, "rebase-merge"))).toBeNull();
	});

	it("passes on other read errors instead of calling the file missing", async () => {
		writeFileSync(join(dir, "note.md"), "x");
		await expect(files.readText(join(dir, "note.md", "inner"))).rejects.toMatchObject({ code: "ENOTDIR" });
	});

	it("writes text, replacing what was there", async () => {
		writeFileSync(join(dir, ".gitignore"), "old\n");
		await files.writeText(join(dir, ".gitignore"), "new ✓\n");
		expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("new ✓\n");
	});

	it("removes a file, and rejects when there is none", async () => {
		writeFileSync(join(dir, "index.lock"), "");
		await files.remove(join(dir, "index.lock"));
		expect(await files.exists(join(dir, "index.lock"))).toBe(false);
		await expect(files.remove(join(dir, "index.lock"))).rejects.toMatchObject({ code: "ENOENT" });
	});

	it("copies a binary file byte for byte", async () => {
		const bytes = Buffer.from([0x44, 0x49, 0x52, 0x43, 0x00, 0xff, 0x80, 0x0a, 0x0d, 0xc3]);
		writeFileSync(join(dir, "index"), bytes);
		await files.copy(join(dir, "index"), join(dir, "index-copy"));
		expect(readFileSync(join(dir, "index-copy"))).toEqual(bytes);
	});
});
