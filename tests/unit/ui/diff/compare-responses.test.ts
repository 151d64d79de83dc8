/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import type { ResponseHead } from "../../../../src/runner/transport";
import type { RunSnapshot } from "../../../../src/runner/result";
import { NoteSession } from "../../../../src/runner/session";
import { aliasesWithResponses, comparePinned, compareWithAlias, compareWithPrevious, insertDiffOfAliases } from "../../../../src/ui/diff/compare-responses";
import { installDomHelpers, Keymap, notices, Scope } from "../../../e2e/host/obsidian-shim";
import type { App } from "obsidian";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
Object.assign(Range.prototype, { getClientRects: () => [], getBoundingClientRect: () => new DOMRect() });

const scope = new Scope();
const app = { scope, keymap: new Keymap(scope) } as unknown as App;

const head = (contentType: string): ResponseHead => ({ status: 200, statusText: "OK", httpVersion: "1.1", headers: [["Content-Type", contentType]], url: "http://127.0.0.1/", redirects: 0 });
/** A finished http run with this body, as the engine publishes it. */
const response = (body: string, startedAt: number, contentType = "application/json"): RunSnapshot => ({ kind: "http", state: "done", startedAt, head: head(contentType), body: new TextEncoder().encode(body), receivedBytes: body.length });

/** The open modal: its title, its sections' headings and each diff's change count. */
const modal = () => {
	const el = document.querySelector<HTMLElement>(".modal");
	return {
		title: el?.querySelector(".modal-title")?.textContent,
		sections: [...(el?.querySelectorAll(".rb-compare-section h4") ?? [])].map((h) => h.textContent),
		changes: [...(el?.querySelectorAll(".rb-diff") ?? [])].map((d) => (d as HTMLElement).dataset.changes),
	};
};
const choices = () => [...document.querySelectorAll(".prompt-results .suggestion-item")].map((i) => i.textContent);
const choose = async (text: string) => {
	await Promise.resolve();
	([...document.querySelectorAll<HTMLElement>(".prompt-results .suggestion-item")].find((i) => i.textContent === text) as HTMLElement).click();
};
const closeAll = () => document.querySelectorAll(".modal-container").forEach((m) => m.remove());

beforeEach(() => {
	closeAll();
	notices.length = 0;
});

describe("aliasesWithResponses", () => {
	it("keeps the aliases whose blocks finished with a response", () => {
		const session = new NoteSession();
		session.update("@a", response("{}", 1));
		session.update("@b", { kind: "http", state: "failed", receivedBytes: 0, error: { code: "connect_failed", message: "Failed to connect" } });
		session.update("@c", { kind: "http", state: "running", receivedBytes: 0 });
		expect(aliasesWithResponses(session, ["a", "b", "c", "d"])).toEqual(["a"]);
	});
});

describe("compareWithPrevious", () => {
	it("compares the block's last two responses of the session, bodies then headers", () => {
		const session = new NoteSession();
		session.update("@a", response('{"n":1}', 1000));
		session.update("@a", response('{"n":2}', 2000));
		compareWithPrevious(app, session, "@a", "a");
		const m = modal();
		expect(m.title).toMatch(/^a at .+ \u2194 a at .+$/);
		expect(m.sections).toEqual(["Body", "Headers"]);
		expect(m.changes).toEqual(["1", "0"]);
	});

	it("says a second run is needed when there is only one", () => {
		const session = new NoteSession();
		session.update("@a", response("{}", 1000));
		compareWithPrevious(app, session, "@a", "a");
		expect(document.querySelector(".modal")).toBeNull();
		expect(notices).toEqual(["Runnable Blocks: Run this block twice in this session to compare its responses (earlier bodies are kept in memory only)."]);
	});
});

describe("compareWithAlias", () => {
	it("offers the other blocks with a response and compares with the one chosen", async () => {
		const session = new NoteSession();
		session.update("@mine", response("one\ntwo\n", 1, "text/plain"));
		session.update("@other", response("one\nTWO\n", 2, "text/plain"));
		session.update("@same", response("one\ntwo\n", 3, "text/plain"));
		compareWithAlias(app, session, "@mine", "mine", ["mine", "other", "same", "never"]);
		await Promise.resolve();
		expect(choices()).toEqual(["other", "same"]);
		await choose("other");
		expect(modal().title).toBe("mine \u2194 other");
		expect(modal().changes[0]).toBe("1");
	});

	it.each([
		["this block has no response", false, "Run this block first: there is no response to compare."],
		["no other block has one", true, "No other block of this note has a response to compare with yet."],
	])("says so when %s", (_case, mineRan, message) => {
		const session = new NoteSession();
		if (mineRan) session.update("@mine", response("{}", 1));
		compareWithAlias(app, session, "@mine", "mine", ["mine", "other"]);
		expect(notices).toEqual([`Runnable Blocks: ${message}`]);
		expect(document.querySelector(".modal")).toBeNull();
	});
});

describe("insertDiffOfAliases", () => {
	it("asks for the left then the right response, and inserts a textdiff of their bodies (JSON pretty-printed)", async () => {
		const session = new NoteSession();
		session.update("@a", response('{"x":1}', 1));
		session.update("@b", response('{"x":2}', 2));
		const inserted: string[] = [];
		insertDiffOfAliases(app, session, ["a", "b"], (text) => inserted.push(text));
		await Promise.resolve();
		expect(document.querySelector<HTMLInputElement>(".prompt-input")?.placeholder).toBe("Left pane: which block's response?");
		await choose("b");
		await Promise.resolve();
		expect(choices()).toEqual(["a"]);
		await choose("a");
		expect(inserted).toHaveLength(1);
		expect(inserted[0]).toMatch(/^```textdiff language=json\n/);
		expect(inserted[0].indexOf('"x": 2')).toBeLessThan(inserted[0].indexOf('"x": 1'));
	});

	it("needs two responses", () => {
		const session = new NoteSession();
		session.update("@a", response("{}", 1));
		insertDiffOfAliases(app, session, ["a", "b"], () => undefined);
		expect(notices).toEqual(["Runnable Blocks: Run two blocks with aliases first: the diff is filled from their responses."]);
	});
});

describe("comparePinned", () => {
	it("shows the pinned response against the last run, and says so when they match", () => {
		comparePinned(app, "Pinned \u2194 now", "status 200\nbody 1\n", "status 200\nbody 2\n");
		expect(modal().title).toBe("Pinned \u2194 now");
		expect(modal().changes).toEqual(["1"]);
		expect(notices).toEqual([]);
		closeAll();
		comparePinned(app, "Pinned \u2194 now", "same\n", "same\n");
		expect(notices).toEqual(["Runnable Blocks: The last run matches the pinned response."]);
		expect(modal().changes).toEqual(["0"]);
	});

	it("lets go of its panes when closed", () => {
		comparePinned(app, "t", "a\n", "b\n");
		window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
		expect(document.querySelector(".modal")).toBeNull();
		expect(document.querySelector(".rb-diff")).toBeNull();
	});
});
