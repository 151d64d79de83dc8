import { compareTexts, describeCount, parseNote, textdiffOptions, unifiedDiff } from "../../blocks";
import { readNote } from "../read-note";
import type { Terminal } from "../terminal";
import { EXIT, UsageError } from "../usage";

type Write = (s: string) => void;

export interface DiffCommandOptions {
	file: string;
	alias: string;
	terminal: Terminal;
}

/** ANSI colours for a unified diff on a colour terminal: headers bold, hunks cyan, - red, + green. */
export function colourLine(line: string): string {
	if (line.startsWith("---") || line.startsWith("+++")) return `\x1b[1m${line}\x1b[0m`;
	if (line.startsWith("@@")) return `\x1b[36m${line}\x1b[0m`;
	if (line.startsWith("-")) return `\x1b[31m${line}\x1b[0m`;
	if (line.startsWith("+")) return `\x1b[32m${line}\x1b[0m`;
	return line;
}

/**
 * `runnable-blocks diff <note.md> --alias NAME`: the textdiff block's two panes as a unified diff,
 * under the fence's options (ignore_whitespace, ignore_case, normalize=json). Exit 0 when the
 * panes are equal, 1 when they differ (as `diff`), 2 when there is no such block or it has errors.
 */
export function diffCommand(opts: DiffCommandOptions, out: Write, err: Write): number {
	const note = parseNote(readNote(opts.file));
	const block = note.find((b) => b.alias === opts.alias);
	if (!block) {
		const names = note.filter((b) => b.kind === "textdiff" && b.alias !== null).map((b) => b.alias as string);
		throw new UsageError(`no block with alias "${opts.alias}" in ${opts.file}${names.length ? ` (textdiff blocks: ${names.join(", ")})` : " (it has no textdiff block with an alias)"}`);
	}
	if (block.kind !== "textdiff") throw new UsageError(`"${opts.alias}" is ${block.kind === "http" ? "an" : "a"} ${block.kind} block; diff compares the two panes of a textdiff block`);
	const error = block.problems.find((p) => p.severity === "error");
	if (error) throw new UsageError(`cannot compare ${opts.alias}: ${opts.file}:${error.line + 1}:${error.column + 1}: ${error.message}`);
	for (const w of block.problems) err(`${opts.file}:${w.line + 1}:${w.column + 1}: warning: ${w.message}\n`);
	const options = textdiffOptions(block.info.tokens);
	const comparison = compareTexts(block.textdiff.left, block.textdiff.right, options);
	for (const { pane, reason } of comparison.notJson) err(`${opts.file}: ${opts.alias}: the ${pane} pane is not JSON, compared as written: ${reason}\n`);
	const text = unifiedDiff(comparison.left, comparison.right, comparison.changes, { labelA: `${opts.alias} (left)`, labelB: `${opts.alias} (right)` });
	out(opts.terminal.colour ? text.replace(/^.*$/gm, colourLine) : text);
	if (opts.terminal.rich) err(`${describeCount(comparison.count)}\n`);
	return comparison.count.changes === 0 ? EXIT.ok : EXIT.failed;
}
