import type DiffSequence from "@jest/diff-sequences";

/**
 * Line-level comparison for textdiff blocks and response comparison: which lines changed, how
 * many, and the unified text `diff -u` would print. The diff is Myers' (@jest/diff-sequences, a
 * small pure module: @codemirror/merge's diff would bring @codemirror/view into the core and the
 * CLI); lines are compared by number, each distinct compared form getting one.
 */

/** A run of changed lines: `[fromA, toA)` of the left replaced by `[fromB, toB)` of the right (0-based). */
export interface LineChange {
	fromA: number;
	toA: number;
	fromB: number;
	toB: number;
}

export interface CompareOptions {
	/** Lines that differ only in whitespace (spaces, tabs, a trailing \r) are equal, as `diff -w`. */
	ignoreWhitespace?: boolean;
	/** Lines that differ only in letter case are equal. */
	ignoreCase?: boolean;
}

export interface ChangeCount {
	/** Runs of changed lines (hunks without context). */
	changes: number;
	/** Lines only on the right. */
	added: number;
	/** Lines only on the left. */
	removed: number;
}

/** Splits a pane into lines on \n (a \r before it stays part of the line, so CRLF differences show). */
export function paneLines(text: string): string[] {
	return text.split("\n");
}

/** The form of a line that is compared under the options. */
function compareKey(line: string, options: CompareOptions): string {
	let key = line;
	if (options.ignoreWhitespace) key = key.replace(/\s+/g, "");
	if (options.ignoreCase) key = key.toLowerCase();
	return key;
}

/** The line runs that differ between `a` and `b`, in order. */
export function diffLines(a: readonly string[], b: readonly string[], options: CompareOptions = {}): LineChange[] {
	const ids = new Map<string, number>();
	const encode = (lines: readonly string[]) => {
		const out = new Int32Array(lines.length);
		for (let i = 0; i < lines.length; i++) {
			const key = compareKey(lines[i], options);
			let id = ids.get(key);
			if (id === undefined) {
				id = ids.size;
				ids.set(key, id);
			}
			out[i] = id;
		}
		return out;
	};
	const ea = encode(a);
	const eb = encode(b);
	const changes: LineChange[] = [];
	// The common runs arrive in order; the gaps between them are the changes.
	let nextA = 0;
	let nextB = 0;
	const gap = (toA: number, toB: number) => {
		if (toA > nextA || toB > nextB) changes.push({ fromA: nextA, toA, fromB: nextB, toB });
	};
	// Required here: a text module of main.js, compiled on the first diff (docs/architecture.md, "Text modules").
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	(require("@jest/diff-sequences") as { default: typeof DiffSequence }).default(ea.length, eb.length, (i, j) => ea[i] === eb[j], (n, i, j) => {
		gap(i, j);
		nextA = i + n;
		nextB = j + n;
	});
	gap(ea.length, eb.length);
	return changes;
}

export function countChanges(changes: readonly LineChange[]): ChangeCount {
	let added = 0;
	let removed = 0;
	for (const c of changes) {
		added += c.toB - c.fromB;
		removed += c.toA - c.fromA;
	}
	return { changes: changes.length, added, removed };
}

/** "3 changes, +12 −4 lines" (English: the CLI's wording; the plugin words it through t()). */
export function describeCount(count: ChangeCount): string {
	if (count.changes === 0) return "No changes";
	return `${count.changes} ${count.changes === 1 ? "change" : "changes"}, +${count.added} \u2212${count.removed} ${count.added + count.removed === 1 ? "line" : "lines"}`;
}

export interface UnifiedOptions {
	/** Header names for the two sides. */
	labelA: string;
	labelB: string;
	/** Unchanged lines shown around each change (diff -u's 3 by default). */
	context?: number;
}

/**
 * The changes as `diff -u` prints them: `---`/`+++` headers, `@@ -a,n +b,m @@` hunks whose
 * context overlaps merged into one. Empty when there is no change.
 */
export function unifiedDiff(a: readonly string[], b: readonly string[], changes: readonly LineChange[], options: UnifiedOptions): string {
	if (changes.length === 0) return "";
	const context = options.context ?? 3;
	const out = [`--- ${options.labelA}`, `+++ ${options.labelB}`];
	let i = 0;
	while (i < changes.length) {
		// Gather the changes whose context windows touch.
		let j = i;
		while (j + 1 < changes.length && changes[j + 1].fromA - changes[j].toA <= 2 * context) j++;
		const startA = Math.max(0, changes[i].fromA - context);
		const startB = changes[i].fromB - (changes[i].fromA - startA);
		const endA = Math.min(a.length, changes[j].toA + context);
		const endB = changes[j].toB + (endA - changes[j].toA);
		out.push(`@@ -${range(startA, endA - startA)} +${range(startB, endB - startB)} @@`);
		let lineA = startA;
		for (let k = i; k <= j; k++) {
			const c = changes[k];
			for (; lineA < c.fromA; lineA++) out.push(` ${a[lineA]}`);
			for (let x = c.fromA; x < c.toA; x++) out.push(`-${a[x]}`);
			for (let y = c.fromB; y < c.toB; y++) out.push(`+${b[y]}`);
			lineA = c.toA;
		}
		for (; lineA < endA; lineA++) out.push(` ${a[lineA]}`);
		i = j + 1;
	}
	return out.join("\n") + "\n";
}

/** `start,count` of a hunk side, 1-based as diff writes it (an empty side names the line before it). */
function range(start: number, count: number): string {
	if (count === 0) return `${start},0`;
	return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}
