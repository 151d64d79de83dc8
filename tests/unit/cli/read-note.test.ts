import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readNote } from "../../../src/cli/read-note";
import { UsageError } from "../../../src/cli/usage";

describe("readNote", () => {
	let dir: string;
	beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "rb-read-note-"))));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it("reads a note as UTF-8", () => {
		writeFileSync(join(dir, "n.md"), "# é\n");
		expect(readNote(join(dir, "n.md"))).toBe("# é\n");
	});

	it("says in one line why a note cannot be read", () => {
		expect(() => readNote(join(dir, "gone.md"))).toThrow(new UsageError(`${join(dir, "gone.md")}: cannot read the note (ENOENT)`));
		expect(() => readNote(dir)).toThrow(new UsageError(`${dir}: is a directory, expected a markdown note`));
	});
});
