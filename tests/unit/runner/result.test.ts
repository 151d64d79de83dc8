import { failedBeforeStart, IDLE } from "../../../src/runner/result";

describe("run results", () => {
	it("starts every run idle", () => {
		expect(IDLE).toEqual({ state: "idle" });
	});

	it("gives a block that could not start a failed result with its error and nothing sent", () => {
		const error = { code: "dependency_cycle" as const, message: "Reference cycle: a → b → a" };
		expect(failedBeforeStart(error)).toEqual({ state: "failed", error });
	});
});
