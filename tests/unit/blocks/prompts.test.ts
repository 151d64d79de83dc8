import { confirmationOf, parseNote, promptsOf } from "../../../src/blocks";

const block = (content: string, lang = "http") => parseNote(`\`\`\`${lang}\n${content}\n\`\`\``)[0];

describe("promptsOf (# @prompt name [description])", () => {
	it("reads the prompts of the block's head in order, each name once, with what they say and whether they are hidden", () => {
		const b = block("# @prompt username\n// @prompt otp   Your one-time password  \n# @prompt username again\n# @prompt api_key\n# @prompted is a comment\nPOST https://x.test/login\n\n# @prompt inBody is body text");
		expect(promptsOf(b)).toEqual([
			{ name: "username", description: "", secret: false },
			{ name: "otp", description: "Your one-time password", secret: true },
			{ name: "api_key", description: "", secret: true },
		]);
	});

	it.each([
		["password", true],
		["REQ_PASSWORD", true],
		["passwd", true],
		["client_secret", true],
		["AUTH_TOKEN", true],
		["pin", true],
		["refCode", false],
		["username", false],
		["spinner", false],
	])("hides %s: %s", (name, secret) => {
		expect(promptsOf(block(`# @prompt ${name}\nGET https://x.test/`))[0].secret).toBe(secret);
	});

	it("reads a stream block's head as an http block's, and finds none in a kind without a head", () => {
		expect(promptsOf(block("# @prompt room\nWEBSOCKET ws://127.0.0.1/{{room}}")).map((p) => p.name)).toEqual(["room"]);
		expect(promptsOf(block("-- @prompt id\nSELECT 1", "db"))).toEqual([]);
	});

	it("reads a # @note of the head: its words, \"\" without any, null without one", () => {
		expect(confirmationOf(block("# @name drop\n// @note   Are you sure?  \n# @note second\nDELETE https://x.test/"))).toBe("Are you sure?");
		expect(confirmationOf(block("# @note\nGET https://x.test/"))).toBe("");
		expect(confirmationOf(block("# @notes are comments\nGET https://x.test/\n\n# @note in the body"))).toBeNull();
	});
});
