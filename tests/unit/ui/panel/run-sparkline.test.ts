/** @jest-environment jsdom */
import { renderRunSparkline, runClass, sparklinePoints, type SparkRun } from "../../../../src/ui/panel/run-sparkline";
import { setLanguage } from "../../../../src/ui/strings";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());
afterEach(() => setLanguage("en"));

const run = (status: number | null, outcome: string, durationMs: number): SparkRun => ({ status, outcome, durationMs });

describe("runClass", () => {
	it.each<[SparkRun, string]>([
		[run(200, "done", 1), "ok"],
		[run(304, "done", 1), "ok"],
		[run(null, "done", 1), "ok"],
		[run(404, "done", 1), "client-error"],
		[run(503, "done", 1), "server-error"],
		[run(null, "failed", 1), "failed"],
		[run(null, "cancelled", 1), "cancelled"],
		[run(200, "cached", 0), "cached"],
	])("%j is %s", (r, cls) => expect(runClass(r)).toBe(cls));
});

describe("sparklinePoints", () => {
	it("puts the slowest run at the top, zero at the bottom, oldest on the left", () => {
		expect(sparklinePoints([0, 50, 100], 100, 20)).toBe("2,18 50,10 98,2");
	});

	it("draws equal durations as a flat line, a single run at the left edge, nothing for none", () => {
		expect(sparklinePoints([7, 7], 100, 20)).toBe("2,2 98,2");
		expect(sparklinePoints([0, 0], 100, 20)).toBe("2,18 98,18");
		expect(sparklinePoints([3], 100, 20)).toBe("2,2");
		expect(sparklinePoints([], 100, 20)).toBe("");
	});
});

describe("renderRunSparkline", () => {
	// Newest first, as the History popover lists them.
	const runs = [run(200, "done", 40), run(null, "failed", 400), run(500, "done", 120), run(200, "cached", 0)];

	it("draws a polyline of the durations and one mark per run, oldest first, classed by how it ended", () => {
		const parent = document.body.createDiv();
		renderRunSparkline(parent, runs);
		const svgs = parent.querySelectorAll("svg");
		expect(svgs).toHaveLength(2);
		expect(svgs[0].namespaceURI).toBe("http://www.w3.org/2000/svg");
		expect(parent.querySelector("polyline")?.getAttribute("points")).toBe(sparklinePoints([0, 120, 400, 40]));
		const marks = [...parent.querySelectorAll(".rb-status-strip rect")];
		expect(marks.map((m) => m.getAttribute("class"))).toEqual(["rb-status-mark rb-run-cached", "rb-status-mark rb-run-server-error", "rb-status-mark rb-run-failed", "rb-status-mark rb-run-ok"]);
		expect(marks.map((m) => m.querySelector("title")?.textContent)).toEqual(["200 · 0 ms", "500 · 120 ms", "failed · 400 ms", "200 · 40 ms"]);
	});

	it("labels the sparkline with the count and range in the user's language", () => {
		setLanguage("es");
		const parent = document.body.createDiv();
		renderRunSparkline(parent, runs);
		expect(parent.querySelector("svg")?.getAttribute("aria-label")).toBe("Duración de las últimas 4 ejecuciones, de 0 ms a 400 ms");
		expect(parent.querySelector(".rb-status-strip")?.getAttribute("aria-label")).toBe("Cómo terminó cada ejecución, de la más antigua a la más reciente");
	});

	it("keeps a status that looks like markup as text", () => {
		const parent = document.body.createDiv();
		renderRunSparkline(parent, [run(null, "<img src=x onerror=alert(1)>", 1)]);
		expect(parent.querySelector("img")).toBeNull();
		expect(parent.querySelector("rect title")?.textContent).toBe("<img src=x onerror=alert(1)> · 1 ms");
	});

	it("draws nothing without runs", () => {
		const parent = document.body.createDiv();
		renderRunSparkline(parent, []);
		expect(parent.childElementCount).toBe(0);
	});
});
