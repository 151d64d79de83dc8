import { visibleRows } from "../../../src/ui/visible-rows";

describe("visibleRows", () => {
	it("covers the viewport plus the overscan, clamped to the list", () => {
		expect(visibleRows(0, 260, 26, 10_000, 5)).toEqual({ start: 0, end: 15 });
		expect(visibleRows(26 * 100, 260, 26, 10_000, 5)).toEqual({ start: 95, end: 115 });
		expect(visibleRows(26 * 9_995, 260, 26, 10_000, 5)).toEqual({ start: 9_990, end: 10_000 });
	});

	it("counts a partly shown row as shown", () => expect(visibleRows(13, 26, 26, 100, 0)).toEqual({ start: 0, end: 2 }));

	it("draws nothing for an empty list and tolerates a negative scroll (overscroll bounce)", () => {
		expect(visibleRows(0, 500, 26, 0, 5)).toEqual({ start: 0, end: 0 });
		expect(visibleRows(-40, 52, 26, 100, 0)).toEqual({ start: 0, end: 2 });
	});
});
