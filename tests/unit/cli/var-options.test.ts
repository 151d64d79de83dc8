import { parseVarOptions } from "../../../src/cli/var-options";
import { UsageError } from "../../../src/cli/usage";

describe("parseVarOptions (--var NAME=VALUE)", () => {
	it("reads each NAME=VALUE: the value after the first =, empty or holding = itself; a later one of a name wins", () => {
		expect(parseVarOptions(["base=http://127.0.0.1:8080", "q=a=b", "empty=", "user.id=7", "base=http://127.0.0.1:9"])).toEqual({ base: "http://127.0.0.1:9", q: "a=b", empty: "", "user.id": "7" });
		expect(parseVarOptions(undefined)).toEqual({});
	});

	it.each([
		["token", '--var takes NAME=VALUE, not "token" (an empty value is written token=)'],
		["=x", '--var =x: "" is not a variable name (a letter or _, then letters, digits, _ . -)'],
		["1st=x", '--var 1st=x: "1st" is not a variable name (a letter or _, then letters, digits, _ . -)'],
		["a b=x", '--var a b=x: "a b" is not a variable name (a letter or _, then letters, digits, _ . -)'],
	])("refuses %j with a usage error that says how to write it", (written, message) => {
		expect(() => parseVarOptions([written])).toThrow(new UsageError(message));
	});
});
