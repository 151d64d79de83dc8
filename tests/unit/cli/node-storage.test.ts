import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeLockOptions, nodeStorage } from "../../../src/cli/node-storage";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "rb-node-storage-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bytes = (s: string) => new TextEncoder().encode(s);

describe("nodeStorage", () => {
	it("writes into folders it creates, and reads back; a missing file reads as null", async () => {
		const path = join(dir, "a", "b", "h.sqlite");
		expect(await nodeStorage.read(path)).toBeNull();
		expect(await nodeStorage.exists(path)).toBe(false);
		await nodeStorage.write(path, bytes("one"));
		expect(await nodeStorage.read(path)).toEqual(bytes("one"));
		expect(await nodeStorage.exists(path)).toBe(true);
	});

	it("creates a file exclusively, once", async () => {
		const path = join(dir, "new", "lock");
		expect(await nodeStorage.createExclusive(path, bytes("me"))).toBe(true);
		expect(await nodeStorage.createExclusive(path, bytes("other"))).toBe(false);
		expect(await nodeStorage.read(path)).toEqual(bytes("me"));
	});

	it("renames over an existing file, and removes a file (missing or not)", async () => {
		const path = join(dir, "h.sqlite");
		await nodeStorage.write(path, bytes("old"));
		await nodeStorage.write(`${path}.tmp-1`, bytes("new"));
		await nodeStorage.rename(`${path}.tmp-1`, path);
		expect(await nodeStorage.read(path)).toEqual(bytes("new"));
		await nodeStorage.remove(path);
		await nodeStorage.remove(path);
		expect(await nodeStorage.exists(path)).toBe(false);
	});

	it("lists the files of the folder whose name starts with the path's name", async () => {
		const path = join(dir, "h.sqlite");
		await nodeStorage.write(path, bytes(""));
		await nodeStorage.write(`${path}.tmp-2`, bytes(""));
		await nodeStorage.write(join(dir, "other"), bytes(""));
		expect((await nodeStorage.siblings(path)).sort()).toEqual([path, `${path}.tmp-2`]);
		expect(await nodeStorage.siblings(join(dir, "none", "h.sqlite"))).toEqual([]);
	});
});

describe("nodeLockOptions", () => {
	it("owns locks as this process, and knows a live process from a gone one", () => {
		const options = nodeLockOptions();
		expect(options.owner.pid).toBe(process.pid);
		expect(options.isAlive?.(process.pid)).toBe(true);
		expect(options.isAlive?.(2 ** 22 + 12345)).toBe(false);
	});
});
