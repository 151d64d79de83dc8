import { scanFences, type Fence } from "./fences";
import { parseInfo } from "./info";
import { HTTP_RESPONSE_TOKENS } from "./http-response";
import { dominantBreak, type LineBreak } from "./lines";
import { fenceLength } from "./textdiff";

/** The part of a block a pin is placed by: its fence in the note and its alias. */
export interface PinnedBlock {
	fence: Fence;
	alias: string | null;
}

export type PinWrite = { ok: true; text: string } | { ok: false; reason: string };

/**
 * The block's pinned fence: the first fence after its closing line, past blank lines only, when it
 * is an ```` ```http-response ```` whose `alias=` is the block's. Any other fence there, or text
 * between, means the block has no pin (a pin moved away is left alone, never rewritten).
 */
export function pinnedFenceOf(text: string, block: PinnedBlock): Fence | null {
	if (block.alias === null) return null;
	const fences = scanFences(text);
	const at = fences.findIndex((f) => f.startLine === block.fence.startLine);
	const next = at === -1 ? undefined : fences[at + 1];
	if (!next || next.lang !== "http-response") return null;
	if (parseInfo(next.info, HTTP_RESPONSE_TOKENS).tokens.alias !== block.alias) return null;
	// Only blank lines (in the block's container: `>` marks) between the block's closing fence and the pin.
	if (!/^[\s>]*$/.test(text.slice(block.fence.to, next.from))) return null;
	return next;
}

/** The line break of the block's closing line, or the note's most used one. */
function breakAt(text: string, offset: number): LineBreak {
	if (text.startsWith("\r\n", offset)) return "\r\n";
	if (text[offset] === "\n") return "\n";
	return dominantBreak(text) ?? "\n";
}

/**
 * Writes `content` (editor text: "\n" breaks) as the block's pin: its pinned fence's content is
 * replaced, its fence line kept as written (the tokens the user chose), else a new
 * ```` ```http-response alias=<alias> ```` fence goes right under the block. One fence, replaced,
 * never appended; every byte of the note outside it stays as it was, line breaks included (CRLF
 * notes get CRLF pins). A block without an alias, or a pin that is not closed (its end would be
 * a guess), is refused with the reason.
 */
export function writePin(text: string, block: PinnedBlock, content: string): PinWrite {
	if (block.alias === null) return { ok: false, reason: "the block has no alias: add alias=<name> to its fence line to pin its response" };
	if (!block.fence.terminated) return { ok: false, reason: `block "${block.alias}" is not closed` };
	const pin = pinnedFenceOf(text, block);
	if (pin && !pin.terminated) return { ok: false, reason: `the pinned response under "${block.alias}" is not closed: close or delete it, then pin again` };
	const eol = breakAt(text, block.fence.to);
	const prefix = block.fence.contentPrefix;
	const ticks = "`".repeat(fenceLength(content));
	const info = pin ? (pin.info ? ` ${pin.info}` : "") : ` alias=${block.alias}`;
	const lines = [`${ticks}http-response${info}`, ...(content === "" ? [] : content.split("\n")), ticks];
	const fence = lines.map((l) => prefix + l).join(eol);
	if (pin) return { ok: true, text: text.slice(0, pin.from) + fence + text.slice(pin.to) };
	return { ok: true, text: text.slice(0, block.fence.to) + eol + fence + text.slice(block.fence.to) };
}
