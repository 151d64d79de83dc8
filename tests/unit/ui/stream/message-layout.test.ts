import { MessageLayout } from "../../../../src/ui/stream/message-layout";

function layoutOf(heights: number[]): MessageLayout {
	const layout = new MessageLayout();
	for (const h of heights) layout.push(h);
	return layout;
}

describe("MessageLayout", () => {
	it("places each message after the previous one", () => {
		const layout = layoutOf([2, 5, 1]);
		expect([0, 1, 2, 3].map((i) => layout.startOf(i))).toEqual([0, 2, 7, 8]);
		expect(layout.totalLines).toBe(8);
		expect(layout.count).toBe(3);
	});

	it.each([
		[0, 0],
		[1, 0],
		[2, 1],
		[6, 1],
		[7, 2],
		[100, 2],
		[-5, 0],
	])("finds the message at line %i: %i", (line, index) => expect(layoutOf([2, 5, 1]).messageAt(line)).toBe(index));

	it("grows past its first capacity and still finds every message", () => {
		const layout = layoutOf(Array.from({ length: 100_000 }, (_, i) => 1 + (i % 3)));
		expect(layout.count).toBe(100_000);
		for (const i of [0, 1, 1023, 1024, 50_000, 99_999]) expect(layout.messageAt(layout.startOf(i))).toBe(i);
	});

	it("is empty after clear", () => {
		const layout = layoutOf([3]);
		layout.clear();
		expect([layout.count, layout.totalLines, layout.messageAt(10)]).toEqual([0, 0, 0]);
	});
});
