/** @jest-environment jsdom */
import { renderHeaders } from "../../../../src/ui/panel/headers-view";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());

function show(headers: Array<[string, string]>) {
	const parent = createDiv();
	renderHeaders(parent, headers);
	const search = parent.querySelector<HTMLInputElement>("input.rb-headers-search");
	if (!search) throw new Error("no filter box");
	const rows = () => Array.from(parent.querySelectorAll("tbody tr"));
	return {
		parent,
		/** The rows as name/value pairs, in the order shown. */
		shown: () => rows().filter((tr) => !tr.classList.contains("rb-hidden")).map((tr) => [tr.querySelector("th")?.textContent, tr.querySelector("td")?.textContent]),
		filter: (q: string) => {
			search.value = q;
			search.dispatchEvent(new Event("input"));
		},
	};
}

describe("the Headers tab", () => {
	it("sorts headers by name whatever their case, keeping repeats in the order received", () => {
		const v = show([
			["X-Trace", "1"],
			["content-type", "application/json"],
			["Set-Cookie", "b=2"],
			["Cache-Control", "no-store"],
			["set-cookie", "a=1"],
		]);
		expect(v.shown()).toEqual([
			["Cache-Control", "no-store"],
			["content-type", "application/json"],
			["Set-Cookie", "b=2"],
			["set-cookie", "a=1"],
			["X-Trace", "1"],
		]);
	});

	it("filters on name and value together, case-insensitively, and shows all again when the box is cleared", () => {
		const v = show([
			["Content-Type", "application/json"],
			["X-Request-Id", "abc"],
			["Vary", "Accept"],
		]);
		v.filter("  JSON ");
		expect(v.shown()).toEqual([["Content-Type", "application/json"]]);
		v.filter("type: app");
		expect(v.shown()).toEqual([["Content-Type", "application/json"]]);
		v.filter("nothing like it");
		expect(v.shown()).toEqual([]);
		v.filter("");
		expect(v.shown()).toHaveLength(3);
	});

	it("labels the filter box for screen readers", () => {
		const search = show([]).parent.querySelector("input");
		expect(search?.getAttribute("aria-label")).toBe("Filter headers");
		expect(search?.getAttribute("type")).toBe("search");
	});

	it("shows a header that looks like markup as text, creating no element", () => {
		const evil = '<img src=x onerror="alert(1)">';
		const v = show([[evil, evil]]);
		expect(v.shown()).toEqual([[evil, evil]]);
		expect(v.parent.querySelector("img")).toBeNull();
	});
});
