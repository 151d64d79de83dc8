import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What the user reads when the CLI has a bug: one line, and where the stack went. The stack is
 * for us, in a report file in the OS temp folder; a user error never gets here (it is a
 * UsageError or an outcome, printed as one line by its command).
 */
export function reportInternalError(e: unknown, argv: readonly string[], version: string, dir = tmpdir(), now = new Date()): string {
	const message = e instanceof Error ? e.message : String(e);
	const report = [
		`runnable-blocks ${version} internal error, ${now.toISOString()}`,
		`node ${process.version} ${process.platform} ${process.arch}`,
		`argv: ${argv.join(" ")}`,
		"",
		e instanceof Error ? (e.stack ?? message) : String(e),
		"",
	].join("\n");
	const path = join(dir, `runnable-blocks-error-${now.toISOString().replace(/[:.]/g, "-")}-${process.pid}.txt`);
	try {
		writeFileSync(path, report);
		return `runnable-blocks: internal error: ${firstLine(message)} (report: ${path})\n`;
	} catch {
		return `runnable-blocks: internal error: ${firstLine(message)} (no report: ${dir} is not writable)\n`;
	}
}

function firstLine(s: string): string {
	return s.split("\n")[0] || "unknown error";
}

/** Writes a dying process still owes (a run's history), flushed before a crash exits. */
const owed = new Set<() => Promise<void>>();

/** Registers a write to flush if the process dies of a bug; returns its removal. */
export function flushOnCrash(write: () => Promise<void>): () => void {
	owed.add(write);
	return () => owed.delete(write);
}

/** Runs the owed writes, for at most `ms` (a bug may have left one that never ends). */
export async function flushOwedWrites(ms = 3_000): Promise<void> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const writes = [...owed].map((w) => w().catch(() => undefined));
	owed.clear();
	await Promise.race([Promise.all(writes), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
	clearTimeout(timer);
}
