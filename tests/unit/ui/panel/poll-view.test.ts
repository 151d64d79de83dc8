/**
 * @jest-environment jsdom
 */
import type { PollProgress } from "../../../../src/runner/poll";
import { renderPoll } from "../../../../src/ui/panel/poll-view";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

beforeAll(() => installDomHelpers());

const progress = (over: Partial<PollProgress> = {}): PollProgress => ({
	phase: "waiting",
	attempt: 3,
	max: 20,
	everyMs: 5000,
	attempts: [
		{ status: 503, durationMs: 40, state: "done", met: false },
		{ status: null, durationMs: 10, state: "failed", met: false },
		{ status: 200, durationMs: 80, state: "done", met: true },
	],
	...over,
});

describe("a polled block's progress in the panel", () => {
	it("says attempt k of n, the last status and the wait", () => {
		const parent = createDiv();
		renderPoll(parent, progress());
		expect(parent.querySelector(".rb-poll-attempt")?.textContent).toBe("Attempt 3 of 20");
		expect(parent.querySelector(".rb-poll-status")?.textContent).toBe("last status 200");
		expect(parent.querySelector(".rb-poll-wait")?.textContent).toMatch(/^next attempt in 5/);
		expect(parent.querySelector(".rb-poll")?.classList.contains("rb-poll-waiting")).toBe(true);
	});

	it("draws one bar per attempt, its height the duration against the longest, its class the outcome", () => {
		const parent = createDiv();
		renderPoll(parent, progress({ phase: "passed" }));
		const svg = parent.querySelector("svg");
		expect(svg?.namespaceURI).toBe("http://www.w3.org/2000/svg");
		expect(svg?.getAttribute("aria-label")).toBe("Duration and status of each attempt");
		const bars = [...(svg?.querySelectorAll("rect") ?? [])].map((r) => [r.getAttribute("height"), r.getAttribute("class")]);
		expect(bars).toEqual([
			["8", "rb-poll-unmet"],
			["2", "rb-poll-failed"],
			["16", "rb-poll-met"],
		]);
		expect(parent.querySelector(".rb-poll-wait")).toBeNull();
	});

	it("keeps a status text as text: nothing is parsed as markup", () => {
		const parent = createDiv();
		renderPoll(parent, progress({ attempts: [{ status: null, durationMs: 1, state: "failed", met: false }] }));
		expect(parent.querySelector(".rb-poll-status")?.textContent).toBe("last status failed");
		expect(parent.querySelector("title")?.textContent).toMatch(/^failed · /);
	});

	it("shows no sparkline before the first attempt ends", () => {
		const parent = createDiv();
		renderPoll(parent, progress({ phase: "attempting", attempt: 1, attempts: [] }));
		expect(parent.querySelector("svg")).toBeNull();
		expect(parent.querySelector(".rb-poll-status")).toBeNull();
	});
});
