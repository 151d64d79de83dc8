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
