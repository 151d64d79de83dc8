import { Change, presentableDiff } from "@codemirror/merge";
import { diffLines, paneLines, type CompareOptions, type LineChange } from "../../blocks";

/**
 * The merge view's diff (its `diffConfig.override`): the line runs the block's count and the
 * CLI use, under the same ignore options, with the characters that changed inside each run
 * marked by @codemirror/merge's own presentable diff. So the chunks on screen are the changes
 * counted, and lines equal under `ignore_whitespace`/`ignore_case` are not highlighted.
 * `lineChanges`, when the caller has them, are diffLines' result for these texts.
 */
export function mergeChanges(a: string, b: string, options: CompareOptions, lineChanges?: readonly LineChange[]): readonly Change[] {
	const startsA = lineStarts(a);
	const startsB = lineStarts(b);
	const out: Change[] = [];
	for (const c of lineChanges ?? diffLines(paneLines(a), paneLines(b), options)) {
		let fromA = startsA[c.fromA];
		let fromB = startsB[c.fromB];
		const toA = Math.min(startsA[c.toA], a.length);
		const toB = Math.min(startsB[c.toB], b.length);
		// A run after one side's last line takes the line break before it, so both sides keep the same prefix.
		if (fromA > a.length || fromB > b.length) {
			fromA--;
			fromB--;
		}
		for (const inner of presentableDiff(a.slice(fromA, toA), b.slice(fromB, toB), { scanLimit: 500 })) {
			out.push(new Change(fromA + inner.fromA, fromA + inner.toA, fromB + inner.fromB, fromB + inner.toB));
		}
	}
	return out;
}

/** Offsets where each line starts, then one past the end (as if the text ended with a line break). */
function lineStarts(text: string): number[] {
	const starts = [0];
	for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
	starts.push(text.length + 1);
	return starts;
}
