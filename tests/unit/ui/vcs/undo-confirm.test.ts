/** @jest-environment jsdom */
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";
import { actionKey, confirmUndo } from "../../../../src/ui/vcs/undo-confirm";
import type { ChangesSince, SafetyPoint } from "../../../../src/vcs";
import { modalApp } from "../../../support/vcs-session";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
const app = modalApp();

const point = (action: SafetyPoint["action"]): SafetyPoint => ({ id: "0000000000001-0001", action, time: 0, before: {} as SafetyPoint["before"], after: null });

function ask(action: SafetyPoint["action"], changes: ChangesSince) {
	document.body.empty();
	const answer = confirmUndo(app, point(action), changes);
	const modal = document.querySelector<HTMLElement>(".modal")!;
	const button = (text: string) => [...modal.querySelectorAll("button")].find((b) => b.textContent === text)!;
	const paragraphs = () => [...modal.querySelectorAll(".modal-content p")].map((p) => p.textContent);
	const items = () => [...modal.querySelectorAll("li")].map((li) => li.textContent);
	return { answer, modal, button, paragraphs, items, title: () => modal.querySelector(".modal-title")?.textContent };
}

describe("confirmUndo", () => {
	it("names the action and lists the files that changed after it", async () => {
		const q = ask("merge", { changed: true, paths: ["Plan.md", "Ideas.md"], headMoved: false });
		expect(q.title()).toBe("Things changed after the merge");
		expect(q.paragraphs()[0]).toBe("These files changed after the merge. Undoing puts them back as they were before it:");
		expect(q.items()).toEqual(["Plan.md", "Ideas.md"]);
		expect(q.paragraphs()).not.toContain("HEAD has moved since (a commit or a branch switch).");
		q.button("Keep things as they are").click();
		await expect(q.answer).resolves.toBe(false);
	});

	it("says when HEAD moved, and goes ahead only on Undo anyway", async () => {
		const q = ask("commit", { changed: true, paths: ["Plan.md"], headMoved: true });
		expect(q.paragraphs()).toContain("HEAD has moved since (a commit or a branch switch).");
		q.button("Undo anyway").click();
		await expect(q.answer).resolves.toBe(true);
		expect(document.querySelector(".modal")).toBeNull();
	});

	it("lists ten paths and counts the rest", () => {
		const paths = Array.from({ length: 13 }, (_, i) => `note ${i}.md`);
		const q = ask("sync", { changed: true, paths, headMoved: false });
		expect(q.items()).toEqual([...paths.slice(0, 10), "and 3 more"]);
	});

	it("says it cannot tell what changed when the action's end was not recorded, listing nothing", () => {
		const q = ask("rebase", { changed: "unknown", paths: [], headMoved: false });
		expect(q.paragraphs()[0]).toBe(
			"Cannot tell whether anything changed after the rebase (its end was not recorded). Undoing puts HEAD, the index and every file back as they were before it.",
		);
		expect(q.modal.querySelector("ul")).toBeNull();
	});

	it("keeps everything when the dialog is closed without an answer (Escape)", async () => {
		const q = ask("discard", { changed: true, paths: ["Plan.md"], headMoved: false });
		document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
		await expect(q.answer).resolves.toBe(false);
		expect(document.querySelector(".modal")).toBeNull();
	});
});

describe("actionKey", () => {
	it("names each safety point's action through the translation tables", () => {
		expect(actionKey("auto-sync")).toBe("vcsAction:auto-sync");
		expect(actionKey("branch")).toBe("vcsAction:branch");
	});
});
