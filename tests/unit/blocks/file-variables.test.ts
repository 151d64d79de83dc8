import { definesVariablesOnly, fileVariablesFor } from "../../../src/blocks/file-variables";
import { parseNote } from "../../../src/blocks/note";

const note = parseNote(
	[
		"```http",
		"@host = one.test",
		"@token = a",
		"```",
		"```http",
		"@host = two.test",
		"GET https://{{host}}/x",
		"```",
		"```http",
		"@token = mine",
		"GET https://{{host}}/y",
		"```",
		"```db connection=local",
		"SELECT 1",
		"```",
		"```http",
		"@late = below",
		"```",
	].join("\n"),
);

describe("fileVariablesFor", () => {
	it("gives the fences above in order, a later definition winning, then the block's own over them", () => {
		expect(fileVariablesFor(note, note[2])).toEqual({ host: "two.test", token: "mine" });
	});

	it("ignores the fences below the block", () => {
		expect(fileVariablesFor(note, note[0])).toEqual({ host: "one.test", token: "a" });
	});

	it("gives a non-http block the variables of the http fences above it", () => {
		expect(fileVariablesFor(note, note[3])).toEqual({ host: "two.test", token: "mine" });
	});

	it("reads each note as its own, however often it is asked", () => {
		const other = parseNote(["```http", "@host = other.test", "```", "```http", "GET https://{{host}}/", "```"].join("\n"));
		expect(fileVariablesFor(other, other[1])).toEqual({ host: "other.test" });
		expect(fileVariablesFor(note, note[2])).toEqual({ host: "two.test", token: "mine" });
		expect(fileVariablesFor(other, other[0])).toEqual({ host: "other.test" });
	});
});

describe("definesVariablesOnly", () => {
	it("holds for an http fence of variables and no request", () => {
		expect(note.map(definesVariablesOnly)).toEqual([true, false, false, false, true]);
	});

	it("does not hold for an empty http fence", () => {
		expect(definesVariablesOnly(parseNote("```http\n```")[0])).toBe(false);
	});
});
