import { markedSpan } from "../../../../src/ui/db/error-marks";

describe("the spot a db error underlines", () => {
	it.each([
		["the word at the column", "SELECT nme FROM t", 7, { from: 7, to: 10 }],
		["an identifier with $ and digits", "SELECT a$1 + 2", 7, { from: 7, to: 10 }],
		["one character where no word starts", "SELECT * FRM t", 7, { from: 7, to: 8 }],
		["nothing past the end of the line", "SELECT", 9, { from: 6, to: 6 }],
		["from the start for a negative column", "oops", -3, { from: 0, to: 4 }],
	])("is %s", (_, line, column, span) => {
		expect(markedSpan(line, column)).toEqual(span);
	});
});
