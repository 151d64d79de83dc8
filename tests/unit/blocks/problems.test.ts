import { error, hasErrors, warning } from "../../../src/blocks/problems";

describe("problems", () => {
	it("builds an error and a warning, column 0 unless given", () => {
		expect(error("missing_url", "No URL", 3)).toEqual({ code: "missing_url", message: "No URL", line: 3, column: 0, severity: "error" });
		expect(warning("unknown_token", "Unknown token", 0, 9)).toEqual({ code: "unknown_token", message: "Unknown token", line: 0, column: 9, severity: "warning" });
	});

	it("has errors only when one problem is an error", () => {
		expect(hasErrors([])).toBe(false);
		expect(hasErrors([warning("unknown_token", "w", 0), warning("script_not_run", "w", 1)])).toBe(false);
		expect(hasErrors([warning("unknown_token", "w", 0), error("missing_url", "e", 1)])).toBe(true);
	});
});
