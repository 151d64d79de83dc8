import { readFileSync, writeFileSync } from "node:fs";
import { UsageError } from "../usage";
import { byPath } from "./collect";
import type { Durations } from "./shard";

/**
 * The durations file (`--durations-out` writes it, `--durations` reads it): JSON
 * `{"version":1,"durations":{"<note path>": <ms>, …}}`, note paths as the suite names them
 * (relative to the working folder, forward slashes), keys sorted so the file diffs well.
 */
export function formatDurations(durations: Durations): string {
	const entries = [...durations].sort(([a], [b]) => byPath(a, b)).map(([k, v]): [string, number] => [k, Math.round(v * 10) / 10]);
	return JSON.stringify({ version: 1, durations: Object.fromEntries(entries) }, null, 2) + "\n";
}

/** Reads a durations file's text; anything else is a usage error naming the file. */
export function parseDurations(text: string, file: string): Map<string, number> {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (e) {
		throw new UsageError(`${file}: not a durations file (${e instanceof Error ? e.message : String(e)})`);
	}
	const durations = (data as { durations?: unknown } | null)?.durations;
	if (typeof durations !== "object" || durations === null || Array.isArray(durations)) throw new UsageError(`${file}: not a durations file (expected {"version":1,"durations":{"note.md": ms}})`);
	const out = new Map<string, number>();
	for (const [note, ms] of Object.entries(durations)) {
		if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) throw new UsageError(`${file}: the duration of "${note}" is not a number of milliseconds`);
		out.set(note, ms);
	}
	return out;
}

/**
 * `--durations FILE`: a missing file is no error (the first CI run has none yet, and then
 * the split is by path), an unreadable or malformed one is.
 */
export function readDurations(file: string): Map<string, number> {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === "ENOENT") return new Map();
		throw new UsageError(`${file}: cannot read the durations (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
	}
	return parseDurations(text, file);
}

export function writeDurations(file: string, durations: Durations): void {
	writeFileSync(file, formatDurations(durations));
}
