import { failed } from "../../../src/runner/transport";

describe("failed", () => {
	it("gives a transport failure its code's one text, and the specifics as detail", () => {
		expect(failed("connect_failed", "ECONNREFUSED 127.0.0.1:9", { total: 3 })).toEqual({ kind: "failed", code: "connect_failed", message: "Failed to connect", detail: "ECONNREFUSED 127.0.0.1:9", timing: { total: 3 } });
	});

	it("names the subject of texts that have one, and leaves out an absent detail", () => {
		expect(failed("invalid_url", undefined, { total: 0 }, "ht!tp://x")).toEqual({ kind: "failed", code: "invalid_url", message: 'Invalid URL "ht!tp://x"', timing: { total: 0 } });
	});
});
