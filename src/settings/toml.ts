import type * as SmolToml from "smol-toml";

let loaded: typeof SmolToml | null = null;

/**
 * smol-toml, required on the first TOML read or write: user.toml is read once the workspace is
 * ready, never during Obsidian's start, so the plugin carries the parser as a text module
 * (docs/architecture.md, "Text modules"). Its CommonJS build, the one copy every caller shares.
 */
export function toml(): typeof SmolToml {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
	loaded ??= require("smol-toml") as typeof SmolToml;
	return loaded;
}
