import { createHash } from "node:crypto";
import fc from "fast-check";
import { cacheKey, canonicalUrl } from "../../../src/runner/cache-key";

const base = { method: "GET" as const, url: "http://h/a?b=2&a=1", headers: [["Accept", "x"]] as Array<[string, string]>, body: "" };

describe("cache key", () => {
	it("is the hex SHA-256 of the framed parts", () => {
		const framed = JSON.stringify(["GET", "http://h/a?a=1&b=2", [["accept", "x"]], "", [["v", "1"]]]);
		expect(cacheKey(base, { v: "1" })).toBe(createHash("sha256").update(framed).digest("hex"));
	});

	it.each([
		["query order", { url: "http://h/a?a=1&b=2" }],
		["query encoding", { url: "http://h/a?b=%32&a=1" }],
		["header name case", { headers: [["ACCEPT", "x"]] }],
		["fragment", { url: "http://h/a?b=2&a=1#frag" }],
	])("ignores %s", (_name, patch) => {
		expect(cacheKey({ ...base, ...patch } as typeof base, {})).toBe(cacheKey(base, {}));
	});

	it.each([
		["method", { method: "HEAD" }],
		["path", { url: "http://h/b?b=2&a=1" }],
		["query value", { url: "http://h/a?b=3&a=1" }],
		["header value", { headers: [["Accept", "y"]] }],
		["extra header", { headers: [["Accept", "x"], ["X", "1"]] }],
		["body", { body: "x" }],
	])("changes with the %s", (_name, patch) => {
		expect(cacheKey({ ...base, ...patch } as typeof base, {})).not.toBe(cacheKey(base, {}));
	});

	it("depends on the referenced environment snapshot only as given", () => {
		expect(cacheKey(base, { a: "1" })).not.toBe(cacheKey(base, { a: "2" }));
		expect(cacheKey(base, { a: "1", b: "2" })).toBe(cacheKey(base, { b: "2", a: "1" }));
	});

	it("keeps repeated query parameters and sorts them by value", () => {
		expect(canonicalUrl("http://h/?t=b&t=a&s=1")).toBe("http://h/?s=1&t=a&t=b");
		expect(canonicalUrl("http://h/p?q=a+b")).toBe(canonicalUrl("http://h/p?q=a%20b"));
	});

	it("keys a block's client certificate by its files, and leaves keys without one as they were", () => {
		const plain = cacheKey(base, {});
		expect(cacheKey({ ...base, clientCert: undefined }, {})).toBe(plain);
		const p12 = cacheKey({ ...base, clientCert: { pfx: "a.p12", passphrase: "x" } }, {});
		expect(p12).not.toBe(plain);
		expect(cacheKey({ ...base, clientCert: { pfx: "a.p12", passphrase: "y" } }, {})).toBe(p12);
		expect(cacheKey({ ...base, clientCert: { pfx: "b.p12" } }, {})).not.toBe(p12);
		expect(cacheKey({ ...base, clientCert: { cert: "a.p12", key: "k.pem" } }, {})).not.toBe(p12);
	});

	it("parses a URL once while it stays among the recent ones, and gives the same answer", () => {
		const Native = globalThis.URL;
		let parsed = 0;
		globalThis.URL = class extends Native {
			constructor(url: string | URL, base?: string | URL) {
				super(url, base);
				parsed++;
			}
		};
		try {
			const first = canonicalUrl("http://once.test/p?z=1&a=2");
			expect(parsed).toBe(1);
			// A write compares every cached entry's URL: the same URL again is not parsed again.
			for (let i = 0; i < 100; i++) expect(canonicalUrl("http://once.test/p?z=1&a=2")).toBe(first);
			expect(parsed).toBe(1);
			expect(first).toBe("http://once.test/p?a=2&z=1");
			// Bounded: after many other URLs it is parsed afresh, to the same answer.
			for (let i = 0; i < 1100; i++) canonicalUrl(`http://many.test/${i}`);
			parsed = 0;
			expect(canonicalUrl("http://once.test/p?z=1&a=2")).toBe(first);
			expect(parsed).toBe(1);
		} finally {
			globalThis.URL = Native;
		}
	});

	it("still rejects what is not a URL, every time", () => {
		expect(() => canonicalUrl("not a url")).toThrow();
		expect(() => canonicalUrl("not a url")).toThrow();
	});

	it("never collides two different bodies or header sets by concatenation", () => {
		fc.assert(
			fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (a, b, c, d) => {
				fc.pre(a !== c || b !== d);
				const k1 = cacheKey({ ...base, headers: [["x", a]], body: b }, {});
				const k2 = cacheKey({ ...base, headers: [["x", c]], body: d }, {});
				expect(k1).not.toBe(k2);
			}),
			{ numRuns: 300 },
		);
	});
});
