import { newestTemp, tempPathOf, writeAtomically, type BinaryStorage } from "../../../src/runner/binary-storage";

/** A storage in memory that records what happened to it, in order. */
function memoryStorage(files: Record<string, string> = {}): BinaryStorage & { files: Map<string, Uint8Array>; log: string[] } {
	const map = new Map<string, Uint8Array>(Object.entries(files).map(([p, t]) => [p, new TextEncoder().encode(t)]));
	const log: string[] = [];
	return {
		files: map,
		log,
		read: (p) => Promise.resolve(map.get(p) ?? null),
		write: (p, d) => {
			log.push(`write ${p}`);
			map.set(p, d);
			return Promise.resolve();
		},
		createExclusive: (p, d) => Promise.resolve(map.has(p) ? false : (map.set(p, d), true)),
		rename: (from, to) => {
			log.push(`rename ${from} ${to}`);
			const d = map.get(from);
			if (!d) return Promise.reject(new Error(`no ${from}`));
			map.delete(from);
			map.set(to, d);
			return Promise.resolve();
		},
		remove: (p) => Promise.resolve(void map.delete(p)),
		exists: (p) => Promise.resolve(map.has(p)),
		siblings: (p) => Promise.resolve([...map.keys()].filter((k) => k.startsWith(p))),
	};
}

describe("tempPathOf", () => {
	it("names a temp file after its path and time, sortable by time and unique per writer", () => {
		const a = tempPathOf("h.sqlite", 5);
		expect(a).toMatch(/^h\.sqlite\.tmp-000000000000005-[0-9a-z]+$/);
		expect(tempPathOf("h.sqlite", 40) > a).toBe(true);
		expect(tempPathOf("h.sqlite", 5)).not.toBe(a);
	});
});

describe("writeAtomically", () => {
	it("writes a temp file, then renames it over the path", async () => {
		const storage = memoryStorage({ "h.sqlite": "old" });
		await writeAtomically(storage, "h.sqlite", new TextEncoder().encode("new"));
		expect(new TextDecoder().decode(storage.files.get("h.sqlite"))).toBe("new");
		expect([...storage.files.keys()]).toEqual(["h.sqlite"]);
		const [write, rename] = storage.log;
		expect(write).toMatch(/^write h\.sqlite\.tmp-/);
		expect(rename).toBe(`rename ${write.slice("write ".length)} h.sqlite`);
	});
});

describe("newestTemp", () => {
	it("finds the newest temp file of the path, the older `.tmp` name among them", async () => {
		const storage = memoryStorage({ "h.sqlite": "", "h.sqlite.tmp": "", [tempPathOf("h.sqlite", 9)]: "", [tempPathOf("h.sqlite", 10)]: "", "h.sqlite-wal": "" });
		expect(await newestTemp(storage, "h.sqlite")).toMatch(/^h\.sqlite\.tmp-000000000000010-/);
		expect(await newestTemp(memoryStorage({ "h.sqlite.tmp": "" }), "h.sqlite")).toBe("h.sqlite.tmp");
	});

	it("finds none when no write was interrupted", async () => {
		expect(await newestTemp(memoryStorage({ "h.sqlite": "", "h.sqlite-journal": "" }), "h.sqlite")).toBeNull();
	});
});
