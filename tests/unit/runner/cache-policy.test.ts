import { invalidatedUrls, storable } from "../../../src/runner/cache-policy";

type Headers = Array<[string, string]>;
const head = (status: number, headers: Headers = [], url = "http://127.0.0.1:8080/items/1") => ({ status, headers, url });

describe("what the response cache may keep", () => {
	it("keeps a response unless the request or the response says no-store", () => {
		expect(storable({ headers: [] }, { headers: [["Cache-Control", "max-age=60"]] })).toBe(true);
		expect(storable({ headers: [["cache-control", "No-Store"]] }, { headers: [] })).toBe(false);
		expect(storable({ headers: [] }, { headers: [["Cache-Control", "private, no-store"]] })).toBe(false);
	});

	it("reads no-store across repeated Cache-Control headers, and not inside another directive", () => {
		expect(storable({ headers: [] }, { headers: [["Cache-Control", "private"], ["cache-control", "no-store"]] })).toBe(false);
		expect(storable({ headers: [] }, { headers: [["Cache-Control", "no-store-please, x=no-store"]] })).toBe(true);
	});
});

describe("what a write makes stale", () => {
	const post = { method: "POST" as const, url: "http://127.0.0.1:8080/items?b=2&a=1#top" };

	it("invalidates nothing for a safe method or an unsuccessful status", () => {
		expect(invalidatedUrls({ method: "GET", url: post.url }, head(200))).toEqual([]);
		expect(invalidatedUrls(post, head(404))).toEqual([]);
		expect(invalidatedUrls(post, head(101))).toEqual([]);
	});

	it("invalidates the target URL in its canonical form, and a redirect status too", () => {
		expect(invalidatedUrls(post, head(201))).toEqual(["http://127.0.0.1:8080/items?a=1&b=2"]);
		expect(invalidatedUrls(post, head(303))).toEqual(["http://127.0.0.1:8080/items?a=1&b=2"]);
	});

	it("adds same-origin Location and Content-Location, relative ones resolved against the response URL, once each", () => {
		const h = head(201, [["Location", "/items/1"], ["Content-Location", "http://127.0.0.1:8080/items/1"]], "http://127.0.0.1:8080/items");
		expect(invalidatedUrls({ method: "PUT", url: "http://127.0.0.1:8080/items" }, h)).toEqual(["http://127.0.0.1:8080/items", "http://127.0.0.1:8080/items/1"]);
	});

	it("leaves other origins' entries and a Location that is not a URL alone", () => {
		const h = head(200, [["Location", "http://other.test/items/1"], ["Content-Location", "http://["]]);
		expect(invalidatedUrls({ method: "DELETE", url: "http://127.0.0.1:8080/items/1" }, h)).toEqual(["http://127.0.0.1:8080/items/1"]);
	});
});
