import { dbKind } from "./db";
import { editModeToken, httpKind } from "./http";
import { textdiffKind } from "./textdiff";
import { aliasToken, displayToken, timeoutToken } from "./info";
import { defineKind, type BlockKind } from "./kind";

/**
 * A fence language the design names (DESIGN.md §3) whose kind is not built yet: its fences are
 * runnable blocks of the note (they count for "go to block N", aliases and `parse`) with the info
 * tokens every fence read before kinds existed, and no content model. A kind module replaces it.
 */
function reservedKind<L extends string>(language: L) {
	return defineKind({ language, tokens: [aliasToken, timeoutToken, displayToken, editModeToken], parse: () => ({ model: null, problems: [], alias: null }) });
}

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
