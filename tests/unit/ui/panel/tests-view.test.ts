/** @jest-environment jsdom */
import type { AssertionResult } from "../../../../src/blocks/assertions";
import type { HttpView } from "../../../../src/runner/http/http-run";
import { renderTests } from "../../../../src/ui/panel/tests-view";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());

const head = { status: 200, statusText: "OK", httpVersion: "1.1", headers: [], url: "http://127.0.0.1/", redirects: 0 };

function show(view: HttpView) {
	const parent = createDiv();
	renderTests(parent, view);
	const rows = Array.from(parent.querySelectorAll<HTMLElement>("tbody tr")).map((tr) => ({
		cls: tr.className,
		line: tr.dataset.line,
		state: tr.querySelector(".rb-test-label")?.textContent,
		icon: tr.querySelector(".rb-test-state svg")?.getAttribute("class"),
		assertion: tr.querySelector("code")?.textContent,
		message: tr.querySelector(".rb-test-message")?.textContent ?? null,
		actual: tr.querySelector(".rb-test-actual")?.textContent,
	}));
	return { parent, rows, summary: parent.querySelector(".rb-tests-summary") };
}

const done = (assertions: AssertionResult[]): HttpView => ({ state: "done", head, ...{ assertions } });

describe("the Tests tab", () => {
	it("shows one row per assertion: pass or fail, the note line, the text as written, the actual value and why", () => {
		const { rows, summary } = show(
			done([
				{ line: 4, text: "status == 200", ok: true, actual: "200" },
				{ line: 5, text: "body.$.id == 7", ok: false, actual: "8", message: "expected 7" },
				{ line: 6, text: "header X-Missing exists", ok: false, actual: null },
			]),
		);
		expect(summary?.textContent).toBe("1 of 3 assertions passed");
		expect(summary?.classList.contains("rb-tests-failed")).toBe(true);
		expect(rows).toEqual([
			{ cls: "rb-test-pass", line: "4", state: "Passed", icon: "svg-icon lucide-check", assertion: "?? status == 200", message: null, actual: "200" },
			{ cls: "rb-test-fail", line: "5", state: "Failed", icon: "svg-icon lucide-x", assertion: "?? body.$.id == 7", message: "expected 7", actual: "8" },
			{ cls: "rb-test-fail", line: "6", state: "Failed", icon: "svg-icon lucide-x", assertion: "?? header X-Missing exists", message: null, actual: "—" },
		]);
	});

	it("marks the summary passed when every assertion holds", () => {
		const { summary } = show(done([{ line: 2, text: "status == 200", ok: true, actual: "200" }]));
		expect(summary?.textContent).toBe("1 of 1 assertions passed");
		expect(summary?.classList.contains("rb-tests-passed")).toBe(true);
	});

	it.each<[string, HttpView, string]>([
		["a response with no assertions", done([]), "No assertions. Add ?? lines to the block, e.g. ?? status == 200."],
		["a finished run that carried none", { state: "done", head }, "No assertions. Add ?? lines to the block, e.g. ?? status == 200."],
		["a run still waiting for its response", { state: "running" }, "Assertions are checked once a response arrives."],
	])("explains what is missing for %s", (_, view, text) => {
		const { parent, summary } = show(view);
		expect(summary).toBeNull();
		expect(parent.textContent).toBe(text);
	});

	it("shows values from the response as text, creating no element", () => {
		const evil = "<img src=x onerror=alert(1)>";
		const { parent, rows } = show(done([{ line: 3, text: `body == "${evil}"`, ok: false, actual: evil, message: `got ${evil}` }]));
		expect(parent.querySelector("img")).toBeNull();
		expect(rows[0]).toMatchObject({ actual: evil, message: `got ${evil}`, assertion: `?? body == "${evil}"` });
	});
});
