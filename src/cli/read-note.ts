import { readFileSync, statSync } from "node:fs";
import { UsageError } from "./usage";

/** Reads a note as UTF-8, turning file-system failures into one-line usage errors. */
export function readNote(file: string): string {
	try {
		if (statSync(file).isDirectory()) throw new UsageError(`${file}: is a directory, expected a markdown note`);
		return readFileSync(file, "utf8");
	} catch (e) {
		if (e instanceof UsageError) throw e;
		const code = (e as NodeJS.ErrnoException).code;
		throw new UsageError(`${file}: cannot read the note (${code ?? String(e)})`);
	}
}
