import type * as HashFunctions from "./hash-functions";

/**
 * @noble/hashes, required on the first run (the cache key) rather than at Obsidian's start: main.js
 * carries ./hash-functions as a text module (docs/architecture.md, "Text modules").
 */
export function hashes(): typeof HashFunctions {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	return require("./hash-functions") as typeof HashFunctions;
}
