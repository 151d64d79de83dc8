import { parseNote } from "../../../../src/blocks";
import { aliasTarget } from "../../../../src/ui/editor/reference-jump";

const NOTE = "```http alias=login\nPOST http://127.0.0.1/login\n```\n\n```http\nGET http://127.0.0.1/me?t={{login.response.body.$.token}}&v={{base}}\n```\n";
const note = parseNote(NOTE);
const line = 5;

describe("aliasTarget", () => {
	it("gives the fence of the block an alias reference at a document offset names", () => {
		const inside = NOTE.indexOf("login.response");
		expect(aliasTarget(note, line, inside)).toBe(0);
		expect(aliasTarget(note, line, NOTE.indexOf("{{login"))).toBe(0);
	});

	it("gives nothing off a reference, on a variable, or for an alias no block has", () => {
		expect(aliasTarget(note, line, NOTE.indexOf("GET http://127.0.0.1/me"))).toBeNull();
		expect(aliasTarget(note, line, NOTE.indexOf("base"))).toBeNull();
		const orphan = parseNote("```http\nGET http://127.0.0.1/{{gone.response.status}}\n```");
		expect(aliasTarget(orphan, 1, "```http\nGET http://127.0.0.1/{{g".length)).toBeNull();
		expect(aliasTarget(note, 3, 0)).toBeNull();
	});
});
