import type { DataAdapter } from "obsidian";
import { vaultBinaryStorage } from "../../../src/ui/vault-binary-storage";

/** A vault adapter in memory that, like Obsidian's, refuses to rename onto an existing file and lists one folder. */
function memoryAdapter() {
	const files = new Map<string, Uint8Array>();
	const adapter = {
		exists: (p: string) => Promise.resolve(files.has(p)),
		readBinary: (p: string) => Promise.resolve(files.get(p)!.slice().buffer),
		writeBinary: (p: string, data: ArrayBuffer) => Promise.resolve(void files.set(p, new Uint8Array(data))),
		remove: (p: string) => Promise.resolve(void files.delete(p)),
		rename: (from: string, to: string) => {
			if (files.has(to)) return Promise.reject(new Error("Destination file already exists!"));
			files.set(to, files.get(from)!);
			files.delete(from);
			return Promise.resolve();
		},
		list: (dir: string) => {
			const inside = [...files.keys()].filter((f) => (dir === "/" ? !f.includes("/") : f.startsWith(`${dir}/`)));
			return inside.length === 0 && dir !== "/" ? Promise.reject(new Error("ENOENT")) : Promise.resolve({ files: inside, folders: [] });
		},
	};
	return { files, adapter: adapter as unknown as DataAdapter };
}

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("binary storage over the vault adapter", () => {
	it("reads what it wrote at a normalised path, and a missing file as null", async () => {
		const { files, adapter } = memoryAdapter();
		const storage = vaultBinaryStorage(adapter);
		await storage.write("/.obsidian//h.sqlite", bytes(1, 2));
		expect([...files.keys()]).toEqual([".obsidian/h.sqlite"]);
		await expect(storage.read(".obsidian/h.sqlite")).resolves.toEqual(bytes(1, 2));
		await expect(storage.read(".obsidian/none")).resolves.toBeNull();
	});

	it("writes only the bytes of a view, not the whole buffer behind it", async () => {
		const { files, adapter } = memoryAdapter();
		await vaultBinaryStorage(adapter).write("a", new Uint8Array(bytes(9, 1, 2, 9).buffer, 1, 2));
		expect(files.get("a")).toEqual(bytes(1, 2));
	});

	it("renames onto an existing file by removing it first", async () => {
		const { files, adapter } = memoryAdapter();
		const storage = vaultBinaryStorage(adapter);
		await storage.write("h.sqlite", bytes(1));
		await storage.write("h.sqlite.tmp", bytes(2));
		await storage.rename("h.sqlite.tmp", "h.sqlite");
		expect([...files]).toEqual([["h.sqlite", bytes(2)]]);
	});

	it("creates exclusively only where nothing is, and removes only what is there", async () => {
		const { adapter } = memoryAdapter();
		const storage = vaultBinaryStorage(adapter);
		await expect(storage.createExclusive("h.lock", bytes(1))).resolves.toBe(true);
		await expect(storage.createExclusive("h.lock", bytes(2))).resolves.toBe(false);
		await expect(storage.read("h.lock")).resolves.toEqual(bytes(1));
		await storage.remove("h.lock");
		await expect(storage.remove("h.lock")).resolves.toBeUndefined();
		await expect(storage.exists("h.lock")).resolves.toBe(false);
	});

	it("lists the files of the folder that start with the path, and none for a folder not made yet", async () => {
		const { adapter } = memoryAdapter();
		const storage = vaultBinaryStorage(adapter);
		for (const p of ["cfg/h.sqlite", "cfg/h.sqlite.1.tmp", "cfg/other", "h.sqlite.top"]) await storage.write(p, bytes(0));
		await expect(storage.siblings("cfg/h.sqlite")).resolves.toEqual(["cfg/h.sqlite", "cfg/h.sqlite.1.tmp"]);
		await expect(storage.siblings("h.sqlite")).resolves.toEqual(["h.sqlite.top"]);
		await expect(storage.siblings("nowhere/h.sqlite")).resolves.toEqual([]);
	});
});
