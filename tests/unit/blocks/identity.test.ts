import { blockKey, historyAlias, parseNote } from "../../../src/blocks";

describe("block identity", () => {
	it("keys blocks by alias, or by position without a usable alias", () => {
		expect(blockKey({ alias: "login", index: 4, runnable: true })).toBe("@login");
		expect(blockKey({ alias: null, index: 4, runnable: true })).toBe("#4");
		expect(blockKey({ alias: "dup", index: 2, runnable: false })).toBe("#2");
	});

	it("names a block in history by its alias, or by its 1-based fence line", () => {
		const note = parseNote("intro\n\n```http alias=login\nGET http://h/\n```\n\n```http\nGET http://h/x\n```\n");
		expect(note.map(historyAlias)).toEqual(["login", "#L7"]);
	});
});
