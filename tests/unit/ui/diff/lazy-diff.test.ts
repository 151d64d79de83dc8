/** @jest-environment jsdom */
import { textdiffOptions } from "../../../../src/blocks";
import { compareResponses, diffPanesClass } from "../../../../src/ui/diff/lazy-diff";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();

describe("the diff view's loaders", () => {
	it("give the diff panes class, loaded once and kept", () => {
		const Panes = diffPanesClass();
		expect(diffPanesClass()).toBe(Panes);
		const panes = new Panes(document.body, { left: "a\n", right: "b\n", options: textdiffOptions({}), editable: false });
		expect(panes.el.querySelector(".rb-diff-count")?.textContent).toBe("1 change, +1 \u22121 lines");
		panes.destroy();
	});

	it("give the compare commands over the same panes module", () => {
		const compare = compareResponses();
		expect(compareResponses()).toBe(compare);
		expect(Object.keys(compare).sort()).toEqual(["CompareModal", "aliasesWithResponses", "comparePinned", "compareWithAlias", "compareWithPrevious", "insertDiffOfAliases"]);
	});
});
