import { parseNote } from "../../../src/blocks";
import { isDotenvReference, parseDotenv, readsDotenv } from "../../../src/runner/dotenv-file";

describe("parseDotenv (the dotenv package's rules)", () => {
	it("reads KEY=value lines: export, spaces, comments, a later line of a key winning, lines it cannot read skipped", () => {
		const text = ["# a comment", "export API_KEY = abc123 ", "EMPTY=", "URL=http://x.test/a # trailing", "COLOR=#fff", "not a line", "  DOTTED.name-1=v", "API_KEY=second", "SPACED: colon"].join("\r\n");
		expect(parseDotenv(text)).toEqual({ API_KEY: "second", EMPTY: "", URL: "http://x.test/a", COLOR: "", "DOTTED.name-1": "v", SPACED: "colon" });
	});

	it("keeps quoted values as written: single quotes literal, double quotes with \\n escapes, any quote over lines or escaped inside", () => {
		const text = ["S='a # not a comment \\n'", 'D="line1\\nline2 # kept"', "B=`back tick`", 'MULTI="first', "second", 'third"', 'ESC="say \\"hi\\""', "AFTER=1", 'OPEN="never closed'].join("\n");
		expect(parseDotenv(text)).toEqual({
			S: "a # not a comment \\n",
			D: "line1\nline2 # kept",
			B: "back tick",
			MULTI: "first\nsecond\nthird",
			ESC: 'say \\"hi\\"',
			AFTER: "1",
			OPEN: '"never closed',
		});
	});
});

describe("which notes read their .env", () => {
	it("those with a {{$dotenv …}} reference, in any block", () => {
		expect(isDotenvReference("$dotenv TOKEN")).toBe(true);
		expect(isDotenvReference(" $dotenv %name")).toBe(true);
		expect(isDotenvReference("$dotenvx")).toBe(false);
		expect(readsDotenv(parseNote("```http\nGET https://x.test/{{a}}\n```\n```http\nGET https://x.test/\nX-Key: {{$dotenv KEY}}\n```"))).toBe(true);
		expect(readsDotenv(parseNote("```http\nGET https://x.test/{{$processEnv HOME}}\n```"))).toBe(false);
	});
});
