import type * as CompareResponses from "./compare-responses";
import type * as DiffPanesModule from "./diff-panes";
import { oneTaskEach } from "../task-steps";

/** The diff panes class once required (withDiffPanes builds at once then). */
let loaded: typeof DiffPanesModule.DiffPanes | null = null;

/**
 * The diff view, with @codemirror/merge under it, required when a diff is first shown: main.js
 * carries it as a text module, compiled on that first use rather than at Obsidian's start
 * (docs/architecture.md, "Text modules").
 */
export function diffPanesClass(): typeof DiffPanesModule.DiffPanes {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	loaded ??= (require("./diff-panes") as typeof DiffPanesModule).DiffPanes;
	return loaded;
}

/**
 * Calls `build` with the diff panes class: at once when its code is loaded. The first time, the
 * block has rendered without its panes, and four tasks follow, so no one task pays for all:
 * the code (the merge view's among it) is compiled and evaluated; a throwaway editor, then a
 * throwaway two-line diff, run CodeMirror's view and the merge view's construction once
 * (DiffPanes.warmUpEditor, DiffPanes.warmUp); then `build` runs.
 * Returns what cancels a build not yet run (the block went away first).
 */
export function withDiffPanes(build: (panes: typeof DiffPanesModule.DiffPanes) => void): () => void {
	if (loaded) {
		build(loaded);
		return () => undefined;
	}
	return oneTaskEach([() => diffPanesClass(), () => diffPanesClass().warmUpEditor(), () => diffPanesClass().warmUp(), () => build(diffPanesClass())]);
}

/** The compare modals ("Compare with previous run", "Compare with…", the diff of two aliases) with the panes, required on first use like them. */
export function compareResponses(): typeof CompareResponses {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see diffPanesClass
	return require("./compare-responses") as typeof CompareResponses;
}
