import { dbKind } from "./db";
import { httpKind } from "./http";
import { httpResponseKind } from "./http-response";
import { sseKind } from "./sse";
import { textdiffKind } from "./textdiff";
import { websocketKind } from "./websocket";
import type { BlockKind } from "./kind";

/**
 * The block kinds, in match order. A new kind is its module in `src/blocks` plus one line here;
 * its runner (`src/runner/block-runners.ts`) and renderer (`src/ui/block-renderers.ts`) are one
 * line each too (docs/architecture.md, "Adding a block kind"). Mermaid is not listed: Obsidian
 * renders it. The stream kinds come before http: they claim ```http fences whose request line
 * names their protocol, and http takes the rest.
 */
export const BLOCK_KINDS = [
	sseKind,
	websocketKind,
	httpKind,
	dbKind,
	textdiffKind,
	httpResponseKind,
] as const satisfies readonly BlockKind[];

export type AnyBlockKind = (typeof BLOCK_KINDS)[number];
/** The kinds' names: a block's `kind`, the key of its registry entries. */
export type BlockLanguage = AnyBlockKind["language"];

/** The kind of a name (a block's `kind`), or undefined when it is not ours. */
export function kindOf(language: string): AnyBlockKind | undefined {
	for (let k = 0; k < BLOCK_KINDS.length; k++) if (BLOCK_KINDS[k].language === language) return BLOCK_KINDS[k];
	return undefined;
}

/** A block's kind and its model (`block[block.kind]`), to ask what the kind declares of the block. */
export function declaredBy(block: { readonly kind: string }): { kind: BlockKind; model: unknown } | undefined {
	const kind: BlockKind | undefined = kindOf(block.kind);
	return kind && { kind, model: (block as unknown as Readonly<Record<string, unknown>>)[block.kind] };
}

function fenceLanguageOf(kind: AnyBlockKind): string {
	return (kind as BlockKind).fence ?? kind.language;
}

/** Whether a fence language (lower-case) is one of ours, whatever its content. */
export function isKindFence(lang: string): boolean {
	for (let k = 0; k < BLOCK_KINDS.length; k++) if (fenceLanguageOf(BLOCK_KINDS[k]) === lang) return true;
	return false;
}

/** The kind of a fence: the first of `BLOCK_KINDS` written in its language that claims its content. */
export function kindOfFence(fence: { lang: string; content: string; contentLines?: readonly string[] }): AnyBlockKind | undefined {
	for (let k = 0; k < BLOCK_KINDS.length; k++) {
		const kind: BlockKind = BLOCK_KINDS[k];
		if (fenceLanguageOf(BLOCK_KINDS[k]) !== fence.lang) continue;
		if (!kind.claims || kind.claims(fence.content, fence.contentLines)) return BLOCK_KINDS[k];
	}
	return undefined;
}
