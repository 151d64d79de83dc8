import { parseNote } from "../../../../src/blocks";
import { textdiffOptionsOf } from "../../../../src/ui/diff/textdiff-options";

const DEFAULTS = { mode: "split", ignoreWhitespace: false, ignoreCase: false, language: null, normalize: null };

describe("a textdiff block's options", () => {
	it("come from its fence line", () => {
		const [block] = parseNote("```textdiff mode=unified ignore_case language=json\nleft\n---\nright\n```\n");
		expect(textdiffOptionsOf(block)).toMatchObject({ mode: "unified", ignoreCase: true, ignoreWhitespace: false, language: "json" });
	});

	it.each([
		["a block that cannot be located", undefined],
		["a block of another kind", parseNote("```http\nGET http://127.0.0.1/\n```\n")[0]],
	])("are the defaults for %s", (_, block) => {
		expect(textdiffOptionsOf(block)).toEqual(DEFAULTS);
	});
});
