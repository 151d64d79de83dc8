import { parseNoteHistory } from "../../../src/vcs/history";

describe("parseNoteHistory", () => {
	it("reads each commit with the note's path there and the path a rename came from", () => {
		const out = "\x1e" + ["c".repeat(40), "ccccccc", "Ana", "1795794206", "Move: the plan"].join("\x1f") + "\0\nR100\0Drafts/Plan.md\0Projects/Plan 2027.md\0" + "\x1e" + ["a".repeat(40), "aaaaaaa", "Ana", "1795794200", "First"].join("\x1f") + "\0\nA\0Drafts/Plan.md\0";
		expect(parseNoteHistory(out)).toEqual([
			{ commit: { hash: "c".repeat(40), shortHash: "ccccccc", author: "Ana", time: 1795794206, subject: "Move: the plan" }, path: "Projects/Plan 2027.md", renamedFrom: "Drafts/Plan.md" },
			{ commit: { hash: "a".repeat(40), shortHash: "aaaaaaa", author: "Ana", time: 1795794200, subject: "First" }, path: "Drafts/Plan.md", renamedFrom: null },
		]);
	});

	it("is empty for no output", () => {
		expect(parseNoteHistory("")).toEqual([]);
	});
});
