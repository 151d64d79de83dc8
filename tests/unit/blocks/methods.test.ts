import { BASIC_METHODS, HTTP_METHODS, normalizeMethod, pickerMethods } from "../../../src/blocks";

describe("method picker", () => {
	it("lists the everyday methods, not every WebDAV verb", () => {
		expect(pickerMethods("GET")).toEqual([...BASIC_METHODS]);
		expect(pickerMethods(null)).toEqual([...BASIC_METHODS]);
		expect(pickerMethods("GET")).not.toContain("PROPFIND");
	});

	it("keeps a block's rarer method selectable, once", () => {
		for (const m of HTTP_METHODS) {
			const listed = pickerMethods(m);
			expect(listed).toContain(m);
			expect(new Set(listed).size).toBe(listed.length);
		}
		expect(pickerMethods("PROPFIND")).toEqual([...BASIC_METHODS, "PROPFIND"]);
	});

	it("reads any spelling of a known method and nothing else", () => {
		expect(normalizeMethod("propfind")).toBe("PROPFIND");
		expect(normalizeMethod("G@T")).toBeNull();
	});
});
