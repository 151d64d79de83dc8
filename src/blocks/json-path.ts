import type { JSONPath as JsonPathFn } from "jsonpath-plus";

let loaded: typeof JsonPathFn | null = null;

/**
 * jsonpath-plus, required on the first path that a plain property walk cannot answer: the plugin
 * carries it as a text module, compiled on that first use rather than at Obsidian's start
 * (docs/architecture.md, "Text modules").
 */
export function jsonPath(): typeof JsonPathFn {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
	loaded ??= (require("jsonpath-plus") as { JSONPath: typeof JsonPathFn }).JSONPath;
	return loaded;
}
