import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { httpFileToNote, parseNote } from "../../blocks";
import { EXIT, UsageError } from "../usage";

type Write = (s: string) => void;

/** `runnable-blocks import <file.http> [-o note.md]`: the note on stdout, or written to a new file. */
export function importCommand(opts: { file: string; output?: string }, out: Write, err: Write): number {
	let text: string;
	try {
		text = readFileSync(opts.file, "utf8");
	} catch (e) {
		throw new UsageError(`${opts.file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
	}
	const note = httpFileToNote(text, basename(opts.file, extname(opts.file)));
	const problems = parseNote(note).flatMap((b) => b.problems.filter((p) => p.severity === "error").map((p) => `line ${p.line + 1}: ${p.message}`));
	if (opts.output === undefined) out(note);
	else {
		if (existsSync(opts.output)) throw new UsageError(`${opts.output} exists: choose a new file`);
		writeFileSync(opts.output, note);
		err(`wrote ${opts.output}\n`);
	}
	// The note is written as read; what will not run is said, not fixed.
	for (const p of problems) err(`${opts.output ?? "note"}: ${p}\n`);
	return EXIT.ok;
}
