import { parseDuration } from "../../../../src/cli/suite/duration-arg";
import { UsageError } from "../../../../src/cli/usage";

describe("parseDuration", () => {
	it.each([
		["500ms", 500],
		["90s", 90_000],
		["5m", 300_000],
		["1h30m", 5_400_000],
		["1.5s", 1500],
		["30", 30_000],
	])("reads %s as %d ms", (text, ms) => expect(parseDuration(text, "--deadline")).toBe(ms));

	it.each(["", "5 minutes", "m5", "5x", "0", "0s", "-5s", "5m 3s"])("refuses %j", (text) => {
		expect(() => parseDuration(text, "--deadline")).toThrow(UsageError);
	});

	it("names the option and the value", () => {
		expect(() => parseDuration("soon", "--deadline")).toThrow('--deadline takes a duration like 90s, 5m, 1h30m or 500ms, not "soon"');
	});
});
