import { afterAliases, changesState, parseNote } from "../../../src/blocks";

const block = (fence: string) => parseNote(fence)[0];

describe("afterAliases", () => {
	it.each([
		["```http\n# @after login\nGET http://x/me\n```", ["login"]],
		["```http\n// @after login, setup\n# @after login\nGET http://x/me\n```", ["login", "setup"]],
		["```http\nGET http://x/me\n# @after login setup\n```", ["login", "setup"]],
		["```http\n# @after\nGET http://x/me\n```", []],
		["```http\n# @afterwards login\nGET http://x/me\n```", []],
		["```http\nPOST http://x/me\n\n{\"note\": \"# @after login\"}\n```", []],
		["```http\n# @after login\nSSE http://x/events\n```", ["login"]],
		["```db connection=app\nSELECT 1 -- @after login\n```", []],
	])("reads the `# @after` comment lines of the head of %j", (text, expected) => expect(afterAliases(block(text))).toEqual(expected));
});

describe("changesState", () => {
	it.each([
		["```http\nGET http://x/\n```", false],
		["```http\nhttp://x/\n```", false],
		["```http\nHEAD http://x/\n```", false],
		["```http\nOPTIONS http://x/\n```", false],
		["```http\nPROPFIND http://x/\n```", false],
		["```http\nPOST http://x/\n```", true],
		["```http\nPUT http://x/\n```", true],
		["```http\nPATCH http://x/\n```", true],
		["```http\nDELETE http://x/\n```", true],
		["```http\nGRAPHQL http://x/\n\nquery { a }\n```", true],
		["```http\nG@T http://x/\n```", false],
		["```http\nSSE http://x/events\n```", false],
		["```http\nWS ws://x/chat\n```", true],
		["```db connection=app\nSELECT * FROM t; EXPLAIN SELECT 1\n```", false],
		["```db connection=app\nSELECT 1; DELETE FROM t\n```", true],
		["```db connection=app\nCREATE TABLE t (a)\n```", true],
	])("%j changes state: %s", (text, expected) => expect(changesState(block(text))).toBe(expected));
});
