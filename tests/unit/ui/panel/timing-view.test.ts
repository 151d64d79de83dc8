/** @jest-environment jsdom */
import { renderTiming } from "../../../../src/ui/panel/timing-view";
import type { Timing } from "../../../../src/runner/transport";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());

function show(timing: Timing | undefined, transport?: string) {
	const parent = createDiv();
	renderTiming(parent, timing, transport);
	const rows = Array.from(parent.querySelectorAll<HTMLElement>(".rb-timing-row")).map((row) => {
		const bar = row.querySelector<HTMLElement>(".rb-timing-bar");
		return {
			label: row.querySelector(".rb-timing-label")?.textContent,
			value: row.querySelector(".rb-timing-value")?.textContent,
			start: bar?.style.getPropertyValue("--rb-start"),
			width: bar?.style.getPropertyValue("--rb-width"),
		};
	});
	return { parent, rows, note: parent.querySelector(".rb-timing > .rb-muted")?.textContent ?? null };
}

describe("the Timing tab", () => {
	it("draws each phase from the end of the one before, and total across the whole width", () => {
		const { rows } = show({ dns: 10, connect: 30, tls: 60, ttfb: 150, total: 200 });
		expect(rows).toEqual([
			{ label: "dns", value: "10 ms", start: "0%", width: "5%" },
			{ label: "connect", value: "30 ms", start: "5%", width: "10%" },
			{ label: "tls", value: "60 ms", start: "15%", width: "15%" },
			{ label: "ttfb", value: "150 ms", start: "30%", width: "45%" },
			{ label: "total", value: "200 ms", start: "0%", width: "100%" },
		]);
	});

	it("leaves out the phases the transport did not measure (a reused connection has no dns, connect or tls)", () => {
		const { rows, note } = show({ ttfb: 40, total: 2500, connectionReused: true }, "node");
		expect(rows.map((r) => [r.label, r.value])).toEqual([
			["ttfb", "40 ms"],
			["total", "2.50 s"],
		]);
		expect(note).toBe("connection reused · Transport: node");
	});

	it("never draws a bar of negative width when a phase ends before the previous one", () => {
		const { rows } = show({ dns: 50, connect: 20, total: 100 });
		expect(rows.find((r) => r.label === "connect")).toMatchObject({ start: "50%", width: "0%" });
	});

	it("shows a zero-length run without dividing by zero", () => {
		const { rows } = show({ total: 0 });
		expect(rows).toEqual([{ label: "total", value: "0 ms", start: "0%", width: "0%" }]);
	});

	it("is empty before any timing arrives, and has no note without a transport or a reused connection", () => {
		expect(show(undefined, "node").parent.querySelector(".rb-timing")?.childElementCount).toBe(0);
		expect(show({ total: 5 }).note).toBeNull();
	});
});
