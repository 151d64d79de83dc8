import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { failedError, failureText } from "../../../src/runner/failures";
import { failed } from "../../../src/runner/transport";

const timing = { total: 1 };

describe("failures: one text per code", () => {
	it.each([
		["connect_failed", "Failed to connect"],
		["body_too_large", "[body_too_large]"],
		["invalid_token", "Invalid HTTP token"],
		["cancelled", "[cancelled]"],
		["timeout", "Request cancelled"],
	] as const)("%s reads %j", (code, text) => expect(failureText(code)).toBe(text));

	it("a text that names its subject takes it as a parameter", () => {
		expect(failureText("invalid_url", "not a url")).toBe('Invalid URL "not a url"');
		expect(failureText("setup_failed", "no secret store")).toBe("Could not run: no secret store");
	});

	it("failed() gives the outcome with the code's text and the specifics in detail", () => {
		expect(failed("connect_failed", "ECONNREFUSED", timing)).toEqual({ kind: "failed", code: "connect_failed", message: "Failed to connect", detail: "ECONNREFUSED", timing });
		expect(failed("invalid_url", undefined, timing, "x")).toEqual({ kind: "failed", code: "invalid_url", message: 'Invalid URL "x"', timing });
		expect(failedError("timeout", undefined)).toEqual({ code: "timeout", message: "Request cancelled" });
	});

	it("no module under src types a failure text again", () => {
		const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith(".ts") ? [join(dir, f)] : []));
		const texts = ['"Failed to connect"', '"[body_too_large]"', '"Invalid HTTP token"', '"[cancelled]"', '"Request cancelled"'];
		const root = join(__dirname, "../../../src");
		const offenders = files(root)
			.filter((f) => !f.endsWith(join("runner", "failures.ts")))
			// Code, not comments: a comment may name the text it documents.
			.filter((f) => readFileSync(f, "utf8").split("\n").some((line) => !/^\s*(\*|\/\/)/.test(line) && texts.some((t) => line.includes(t))));
		expect(offenders).toEqual([]);
	});
});
