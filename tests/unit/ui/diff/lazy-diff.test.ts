/** @jest-environment jsdom */
import { textdiffOptions } from "../../../../src/blocks";
import { compareResponses, diffPanesClass, withDiffPanes } from "../../../../src/ui/diff/lazy-diff";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();

/** The next task: what the page runs after the current one (and its microtasks). */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the diff view's loaders", () => {
	// First in this file: the panes' code is not loaded yet.
	it("build the first panes four tasks later (the code, a throwaway editor, a throwaway diff, the panes), later ones at once", async () => {
		const built: string[] = [];
		const warmed: string[] = [];
		withDiffPanes(() => built.push("first"));
		const cancelled = withDiffPanes(() => built.push("cancelled"));
		cancelled();
		expect(built).toEqual([]);
		await nextTask();
		expect(built).toEqual([]);
		// The code is loaded now: the throwaway editor is next, then the throwaway diff.
		const Panes = diffPanesClass();
		const [warmUpEditor, warmUp] = [Panes.warmUpEditor.bind(Panes), Panes.warmUp.bind(Panes)];
		jest.spyOn(Panes, "warmUpEditor").mockImplementation(() => (warmed.push("editor"), warmUpEditor()));
		jest.spyOn(Panes, "warmUp").mockImplementation(() => (warmed.push("diff"), warmUp()));
		await nextTask();
		expect(warmed).toEqual(["editor"]);
		// Built outside the page and dropped.
		expect(document.querySelector(".cm-editor")).toBeNull();
		await nextTask();
		expect(warmed).toEqual(["editor", "diff"]);
		expect(built).toEqual([]);
		expect(document.querySelector(".cm-mergeView")).toBeNull();
		await nextTask();
		expect(built).toEqual(["first"]);
		withDiffPanes((P) => built.push(P === diffPanesClass() ? "at once" : "another class"));
		expect(built).toEqual(["first", "at once"]);
	});

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
