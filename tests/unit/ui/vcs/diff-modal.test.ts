/** @jest-environment jsdom */
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";
import { DiffModal } from "../../../../src/ui/vcs/diff-modal";
import { modalApp } from "../../../support/vcs-session";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
const app = modalApp();

function open(head: string | null, worktree: string | null) {
	document.body.empty();
	const modal = new DiffModal(app, "notes/Plan.md", head, worktree);
	modal.open();
	const editors = () => [...document.querySelectorAll<HTMLElement>(".rb-vcs-diff .cm-content")];
	return {
		modal,
		title: () => document.querySelector(".modal-title")?.textContent,
		labels: () => [...document.querySelectorAll(".rb-vcs-diff-labels span")].map((s) => s.textContent),
		editors,
		lines: (i: number) => [...editors()[i].querySelectorAll(".cm-line")].map((l) => l.textContent),
	};
}

describe("DiffModal", () => {
	it("shows HEAD on the left and the working copy on the right, changes marked, neither editable", () => {
		const m = open("# Plan\nfirst\n", "# Plan\nsecond\n");
		expect(document.querySelector(".modal")?.hasClass("rb-vcs-diff-modal")).toBe(true);
		expect(m.title()).toBe("notes/Plan.md: HEAD ↔ working copy");
		expect(m.labels()).toEqual(["HEAD", "notes/Plan.md"]);
		expect(m.lines(0)).toEqual(["# Plan", "first", ""]);
		expect(m.lines(1)).toEqual(["# Plan", "second", ""]);
		expect(m.editors().map((e) => e.getAttribute("contenteditable"))).toEqual(["false", "false"]);
		expect(document.querySelectorAll(".rb-vcs-diff .cm-changedLine").length).toBeGreaterThan(0);
	});

	it("names a new file (no HEAD side) and a deleted one (no working copy)", () => {
		const added = open(null, "new\n");
		expect(added.labels()).toEqual(["HEAD (new file)", "notes/Plan.md"]);
		expect(added.lines(0)).toEqual([""]);
		expect(added.lines(1)).toEqual(["new", ""]);
		const deleted = open("old\n", null);
		expect(deleted.labels()).toEqual(["HEAD", "(deleted)"]);
		expect(deleted.lines(1)).toEqual([""]);
	});

	it("says a binary file is no text instead of showing its bytes", () => {
		const m = open("PNG\0\0\u0001", "PNG\0\0\u0002");
		expect(document.querySelector(".modal-content p")?.textContent).toBe("Not a text file.");
		expect(m.editors()).toEqual([]);
	});

	it("takes the editors down when closed", () => {
		const m = open("a\n", "b\n");
		const content = document.querySelector<HTMLElement>(".modal-content")!;
		m.modal.close();
		expect(content.childElementCount).toBe(0);
		expect(document.querySelector(".modal")).toBeNull();
	});
});
