import type * as CompareResponses from "./compare-responses";
import type * as DiffPanesModule from "./diff-panes";

/**
 * The diff view, with @codemirror/merge under it, required when a diff is first shown: main.js
 * carries it as a text module, compiled on that first use rather than at Obsidian's start
 * (docs/architecture.md, "Text modules").
 */
export function diffPanesClass(): typeof DiffPanesModule.DiffPanes {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	return (require("./diff-panes") as typeof DiffPanesModule).DiffPanes;
}

/** The compare modals ("Compare with previous run", "Compare with…", the diff of two aliases) with the panes, required on first use like them. */
export function compareResponses(): typeof CompareResponses {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see diffPanesClass
	return require("./compare-responses") as typeof CompareResponses;
}
