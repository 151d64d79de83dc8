import { ByteLruCache } from "../../../src/runner/lru-cache";

describe("byte-bounded LRU", () => {
	it("evicts least recently used entries past the byte bound", () => {
		const c = new ByteLruCache<string>(100);
		c.set("a", "A", 40);
		c.set("b", "B", 40);
		expect(c.get("a")).toBe("A");
		c.set("c", "C", 40);
		expect([c.get("a"), c.get("b"), c.get("c")]).toEqual(["A", undefined, "C"]);
		expect(c.stats()).toEqual({ entries: 2, bytes: 80, maxBytes: 100 });
	});

	it("does not store an entry larger than the bound, and replaces a key's size", () => {
		const c = new ByteLruCache<string>(100);
		c.set("a", "A", 60);
		c.set("huge", "H", 101);
		expect(c.get("huge")).toBeUndefined();
		expect(c.get("a")).toBe("A");
		c.set("a", "A2", 10);
		expect(c.stats().bytes).toBe(10);
	});

	it("clears and deletes", () => {
		const c = new ByteLruCache<number>(10);
		c.set("a", 1, 1);
		c.set("b", 2, 1);
		expect(c.delete("a")).toBe(true);
		expect(c.delete("a")).toBe(false);
		c.clear();
		expect(c.stats()).toEqual({ entries: 0, bytes: 0, maxBytes: 10 });
	});
});
