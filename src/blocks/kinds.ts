import { dbKind } from "./db";
import { httpKind } from "./http";
import { textdiffKind } from "./textdiff";
import type { BlockKind } from "./kind";

/**
 * The block kinds, in match order. A new kind is its module in `src/blocks` plus one line here;
 * its runner (`src/runner/block-runners.ts`) and renderer (`src/ui/block-renderers.ts`) are one
 * line each too (docs/architecture.md, "Adding a block kind"). Mermaid is not listed: Obsidian
 * renders it.
 */
export const BLOCK_KINDS = [
	httpKind,
	dbKind,
	textdiffKind,
] as const satisfies readonly BlockKind[];

export type AnyBlockKind = (typeof BLOCK_KINDS)[number];
/** The fence languages this plugin runs. */
export type BlockLanguage = AnyBlockKind["language"];

/** The kind a fence language names (lower-case), or undefined when it is not ours. */
export function kindOf(language: string): AnyBlockKind | undefined {
	for (let k = 0; k < BLOCK_KINDS.length; k++) if (BLOCK_KINDS[k].language === language) return BLOCK_KINDS[k];
	return undefined;
}
