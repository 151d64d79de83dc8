/**
 * @jest-environment jsdom
 */
import { TextDecoder, TextEncoder } from "node:util";
import { BodyView } from "../../../../src/ui/panel/body-view";
import type { ResponseHead } from "../../../../src/runner/transport";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

// jsdom has no text codecs; the panel uses the page's.
Object.assign(globalThis, { TextEncoder, TextDecoder });
beforeAll(() => installDomHelpers());

const head: ResponseHead = { status: 200, statusText: "OK", httpVersion: "1.1", headers: [["Content-Type", "application/json"]], url: "http://127.0.0.1/", redirects: 0 };

/** A compact JSON array of about `kb` KiB, as APIs send it. */
function jsonBody(kb: number): Uint8Array {
	const items: string[] = [];
	for (let size = 0, i = 0; size < kb * 1024; i++) {
		const item = JSON.stringify({ id: i, title: `Book ${i}`, tags: ["sf", "classic"] });
		items.push(item);
		size += item.length + 1;
	}
	return new TextEncoder().encode(`[${items.join(",")}]`);
}

/** Formats `body` with the given clock; returns the line count and, per turn the page got, the bytes formatted by then. */
async function format(body: Uint8Array, now: () => number): Promise<{ lines: string; turns: number[] }> {
	const parent = createDiv();
	const view = new BodyView(parent, head, body, now);
	const turns: number[] = [];
	const setTimeout = window.setTimeout.bind(window);
	// The page's turn is a timer: note how far the formatting was when it yielded.
	const spy = jest.spyOn(window, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
		const status = parent.querySelector(".rb-body-status")?.textContent ?? "";
		const done = /([\d.]+) KiB of/.exec(status);
		if (done) turns.push(Number(done[1]) * 1024);
		return setTimeout(fn, ms);
	}) as typeof window.setTimeout);
	try {
		view.onload();
		await view.done;
	} finally {
		spy.mockRestore();
	}
	return { lines: parent.querySelector(".rb-body-status")?.textContent ?? "", turns };
}

describe("the Body tab formats a large text in timed steps", () => {
	const body = jsonBody(256);

	it("gives the page a turn once a step has used its time, after at most 32 KiB more", async () => {
		let t = 0;
		const { turns } = await format(body, () => (t += 100)); // every piece overruns the budget
		expect(turns.length).toBeGreaterThanOrEqual(Math.floor(body.byteLength / 32768) - 1);
		const steps = turns.map((at, i) => at - (turns[i - 1] ?? 0));
		expect(Math.max(...steps)).toBeLessThanOrEqual(32768);
	});

	it("formats in one step while the budget lasts (a fast machine pays no turns)", async () => {
		const { turns } = await format(body, () => 0);
		expect(turns).toEqual([]);
	});

	it("shows the same text however it is stepped", async () => {
		let t = 0;
		const stepped = await format(body, () => (t += 100));
		const whole = await format(body, () => 0);
		expect(stepped.lines).toBe(whole.lines);
		expect(whole.lines).toMatch(/^[\d,]+ lines$/);
		expect(Number(whole.lines.replace(/\D/g, ""))).toBeGreaterThan(1000);
	});
});
