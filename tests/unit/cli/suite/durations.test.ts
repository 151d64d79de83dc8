import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatDurations, parseDurations, readDurations, writeDurations } from "../../../../src/cli/suite/durations";
import { UsageError } from "../../../../src/cli/usage";

describe("durations file", () => {
	it("writes sorted keys rounded to 0.1 ms, and reads back what it wrote", () => {
		const text = formatDurations(new Map([["b.md", 12.345], ["a.md", 3]]));
		expect(text).toBe('{\n  "version": 1,\n  "durations": {\n    "a.md": 3,\n    "b.md": 12.3\n  }\n}\n');
		expect(parseDurations(text, "d.json")).toEqual(new Map([["a.md", 3], ["b.md", 12.3]]));
	});

	it.each([
		["not json", "d.json: not a durations file"],
		["[]", 'd.json: not a durations file (expected {"version":1,"durations":{"note.md": ms}})'],
		['{"durations":[]}', "d.json: not a durations file (expected"],
		['{"durations":{"a.md":"fast"}}', 'd.json: the duration of "a.md" is not a number of milliseconds'],
		['{"durations":{"a.md":-1}}', 'd.json: the duration of "a.md" is not a number of milliseconds'],
	])("refuses %s with a message naming the file", (text, message) => {
		expect(() => parseDurations(text, "d.json")).toThrow(UsageError);
		expect(() => parseDurations(text, "d.json")).toThrow(message);
	});

	it("reads a missing file as no durations (the first CI run has none), a file it wrote as its durations", () => {
		const dir = mkdtempSync(join(tmpdir(), "rb-durations-"));
		try {
			expect(readDurations(join(dir, "none.json"))).toEqual(new Map());
			writeDurations(join(dir, "d.json"), new Map([["a.md", 5]]));
			expect(readDurations(join(dir, "d.json"))).toEqual(new Map([["a.md", 5]]));
			writeFileSync(join(dir, "bad.json"), "{");
			expect(() => readDurations(join(dir, "bad.json"))).toThrow(UsageError);
			expect(() => readDurations(dir)).toThrow(`${dir}: cannot read the durations (EISDIR)`);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
