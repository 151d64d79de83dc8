import { runInNewContext } from "node:vm";
import { carriedText, evaluateTextModule, prepareTextModule } from "../../../src/ui/text-module";

describe("evaluateTextModule", () => {
	it("runs the text as a CommonJS module and returns its exports", () => {
		expect(evaluateTextModule("m", "module.exports = { answer: 6 * 7 };", {})).toEqual({ answer: 42 });
		expect(evaluateTextModule("m", "exports.name = 'named';", {})).toEqual({ name: "named" });
	});

	it("answers the text's requires from its table, each when asked", () => {
		const asked: string[] = [];
		const requires = {
			shared: () => (asked.push("shared"), { twice: (n: number) => 2 * n }),
			unused: () => (asked.push("unused"), {}),
		};
		const exports = evaluateTextModule("m", 'const { twice } = require("shared"); module.exports = twice(21);', requires);
		expect(exports).toBe(42);
		expect(asked).toEqual(["shared"]);
	});

	it("names the module and the missing module when the text asks for one the table lacks", () => {
		expect(() => evaluateTextModule("pg", 'require("pg-native");', {})).toThrow("The bundled module pg asked for pg-native, which the plugin does not provide");
		// Not a way into Object.prototype either.
		expect(() => evaluateTextModule("pg", 'require("toString");', {})).toThrow("asked for toString");
	});

	it("compiles nothing until called, and names the module in stack traces", () => {
		let stack = "";
		try {
			evaluateTextModule("tough-cookie", "throw new Error('at load');", {});
		} catch (e) {
			stack = String((e as Error).stack);
		}
		expect(stack).toContain("runnable-blocks/tough-cookie");
	});

	it("reads the code from a carrier's comment, giving back each `*/` the build escaped", () => {
		// As the build writes it: `*/` → `*\/`, and a `*\/` of the code → `*\\/`.
		// A carrier as main.js holds it (this file's own functions lose their comments when compiled for the tests).
		const carrier = runInNewContext("(function () {/*! text module m\nmodule.exports = ['/* a *\\/', /x*\\\\//.source, 2 ** 3];\n*/})") as () => void;
		expect(carriedText(carrier)).toBe("/*! text module m */\nmodule.exports = ['/* a */', /x*\\//.source, 2 ** 3];");
		expect(evaluateTextModule("m", carrier, {})).toEqual(["/* a */", "x*\\/", 8]);
	});

	it("takes a carrier's steps ahead of its require, one at a time: its text, then its compile; the require evaluates", () => {
		const carrierOf = (code: string) => runInNewContext(`(function () {/*! text module m\n${code}\n*/})`) as () => void;
		const broken = carrierOf("module.exports = (;");
		expect(() => prepareTextModule(broken, "text")).not.toThrow();
		expect(() => prepareTextModule(broken, "compile")).toThrow(SyntaxError);
		const throwing = carrierOf("throw new Error('at load');");
		prepareTextModule(throwing, "text");
		prepareTextModule(throwing, "compile");
		// Compiled ahead, it is still named by its mark in stack traces, and runs only when required.
		let stack = "";
		try {
			evaluateTextModule("m", throwing, {});
		} catch (e) {
			stack = String((e as Error).stack);
		}
		expect(stack).toContain("runnable-blocks/m");
		const answer = carrierOf("module.exports = require('six') * 7;");
		prepareTextModule(answer, "compile");
		expect(evaluateTextModule("m", answer, { six: () => 6 })).toBe(42);
	});

	it("says so when a carrier has lost its comment", () => {
		expect(() => carriedText(() => undefined)).toThrow("A text module's carrier has lost its comment");
	});
});
