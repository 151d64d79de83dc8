import { answerFences, insertableFence } from "../../../src/chat/answer-fences";
import { parseNote } from "../../../src/blocks";

describe("code fences of an answer", () => {
	it("finds each fence with its language; http and db are runnable", () => {
		const answer = "Try:\n\n```http alias=me\nGET https://x.test/me\n```\n\nor\n\n~~~sql\nSELECT 1\n~~~\n\n```db\nSELECT 2\n```";
		expect(answerFences(answer)).toEqual([
			{ lang: "http", text: "```http alias=me\nGET https://x.test/me\n```", runnable: true },
			{ lang: "sql", text: "~~~sql\nSELECT 1\n~~~", runnable: false },
			{ lang: "db", text: "```db\nSELECT 2\n```", runnable: true },
		]);
	});
});

describe("inserting an http fence into a note", () => {
	const note = "# API\n\n```http alias=login\nPOST https://x.test/login\n```\n\n```http alias=login-2\nGET https://x.test/a\n```\n";

	it.each([
		["alias= token", "```http alias=login timeout=500\nGET https://x.test/b\n```", "```http alias=login-3 timeout=500\nGET https://x.test/b\n```"],
		["# @name line", "```http\n# @name login\nGET https://x.test/b\n```", "```http\n# @name login-3\nGET https://x.test/b\n```"],
	])("renames an alias the note already uses (%s)", (_where, fence, expected) => {
		const out = insertableFence(fence, note);
		expect(out).toEqual({ text: expected, alias: "login-3", renamedFrom: "login" });
		// Inserted, the note has no duplicate alias: every block can run.
		expect(parseNote(`${note}\n${out.text}\n`).every((b) => b.runnable)).toBe(true);
	});

	it("leaves a fence with a new alias, or none, as it is", () => {
		expect(insertableFence("```http alias=other\nGET https://x.test\n```", note)).toEqual({ text: "```http alias=other\nGET https://x.test\n```", alias: "other", renamedFrom: null });
		expect(insertableFence("```http\nGET https://x.test\n```", note).renamedFrom).toBeNull();
	});
});
