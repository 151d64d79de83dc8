import { textdiffOptions, type NoteBlock, type TextdiffOptions } from "../../blocks";

/** The block's diff options from its fence line (defaults when it cannot be located). */
export function textdiffOptionsOf(block: NoteBlock | undefined): TextdiffOptions {
	return textdiffOptions(block?.kind === "textdiff" ? block.info.tokens : {});
}
