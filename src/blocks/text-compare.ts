import { normalizeJson } from "./json-normalize";
import { editorText } from "./lines";
import { countChanges, diffLines, paneLines, type ChangeCount, type CompareOptions, type LineChange } from "./line-diff";

/** How two texts are compared: the textdiff fence's options, or the response panel's. */
export interface ComparisonOptions extends CompareOptions {
	/** `json`: both sides as sorted-key, 2-space JSON before comparing (each side that parses). */
	normalize?: "json" | null;
}

export interface Comparison {
	/** The compared lines: the texts as written, or normalised. */
	left: string[];
	right: string[];
	/** The texts compared (normalised when that applied), joined with \n. */
	leftText: string;
	rightText: string;
	changes: LineChange[];
	count: ChangeCount;
	/** True when normalisation rewrote at least one side. */
	normalized: boolean;
	/** The sides compared as written although normalisation was asked for, and why. */
	notJson: Array<{ pane: "left" | "right"; reason: string }>;
}

/**
 * Compares two texts line by line under the options. Pure. Line breaks are not content: a CRLF
 * note's panes (whose last line has no \r) compare as the same lines an editor shows.
 */
export function compareTexts(writtenLeft: string, writtenRight: string, options: ComparisonOptions = {}): Comparison {
	const left = editorText(writtenLeft);
	const right = editorText(writtenRight);
	const notJson: Comparison["notJson"] = [];
	let leftText = left;
	let rightText = right;
	if (options.normalize === "json") {
		const l = normalizeJson(left);
		const r = normalizeJson(right);
		if (l.ok) leftText = l.text;
		else notJson.push({ pane: "left", reason: l.message });
		if (r.ok) rightText = r.text;
		else notJson.push({ pane: "right", reason: r.message });
	}
	const a = paneLines(leftText);
	const b = paneLines(rightText);
	const changes = diffLines(a, b, options);
	return { left: a, right: b, leftText, rightText, changes, count: countChanges(changes), normalized: leftText !== left || rightText !== right, notJson };
}
