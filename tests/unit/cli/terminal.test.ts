import { PLAIN, terminalOf } from "../../../src/cli/terminal";

describe("what the terminal gets", () => {
	it.each([
		[{}, true, true, { rich: true, colour: true, progress: true }],
		[{ NO_COLOR: "1" }, true, true, { rich: true, colour: false, progress: true }],
		[{ NO_COLOR: "" }, true, false, { rich: true, colour: true, progress: false }],
		[{}, false, false, { rich: false, colour: false, progress: false }],
		[{ FORCE_COLOR: "1" }, false, false, { rich: true, colour: true, progress: false }],
		[{ FORCE_COLOR: "0" }, false, false, { rich: false, colour: false, progress: false }],
		[{ FORCE_COLOR: "1", NO_COLOR: "1" }, false, false, { rich: true, colour: false, progress: false }],
	])("env %j, stdout tty %s, stderr tty %s → %j", (env, out, err, expected) => {
		expect(terminalOf(env, out, err)).toEqual(expected);
	});
});


describe("PLAIN", () => {
	it("is the terminal of pipes and tests: plain lines only", () => {
		expect(PLAIN).toEqual(terminalOf({}, false, false));
	});
});
