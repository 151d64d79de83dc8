import { createNoteCache } from "../../../src/blocks/note-cache";

const text = (n: number) => `\`\`\`http\nGET /${n}\n\`\`\``;

describe("createNoteCache", () => {
	it("parses a text into its blocks", () => {
		const [block] = createNoteCache().blocksOf(text(1));
		expect(block.kind === "http" && block.http.url).toBe("/1");
	});

	it("parses a text once while it stays among the last few asked for", () => {
		const cache = createNoteCache(2);
		const first = cache.blocksOf(text(1));
		cache.blocksOf(text(2));
		expect(cache.blocksOf(text(1))).toBe(first);
	});

	it("forgets the least recently asked text beyond its size", () => {
		const cache = createNoteCache(2);
		const first = cache.blocksOf(text(1));
		cache.blocksOf(text(2));
		cache.blocksOf(text(3));
		const again = cache.blocksOf(text(1));
		expect(again).not.toBe(first);
		expect(again).toEqual(first);
	});

	it("counts a text asked again as recent", () => {
		const cache = createNoteCache(2);
		const first = cache.blocksOf(text(1));
		cache.blocksOf(text(2));
		cache.blocksOf(text(1));
		cache.blocksOf(text(3));
		expect(cache.blocksOf(text(1))).toBe(first);
	});
});
