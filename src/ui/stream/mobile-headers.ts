import { Platform } from "obsidian";
import { blockKey, type NoteBlock } from "../../blocks";
import type { BlockHost } from "../block-host";
import { notify } from "../notify";
import { t } from "../strings";
import { renderNoCustomHeaders } from "./no-custom-headers";

/**
 * The header names a WebSocket block sets that the mobile app cannot send: its only client is
 * the browser's WebSocket. The mobile app, not the mobile emulation, whose desktop `ws` sends them.
 */
export function unsendableHeaders(block: NoteBlock, mobileApp: boolean): string[] {
	if (!mobileApp || block.kind !== "websocket") return [];
	return block.websocket.request.headers.map((h) => h.name);
}

/**
 * On the mobile app, a WebSocket block with headers says in the block that they will not be
 * sent; its button runs the block without them (the core's `dropHeaders` run option).
 */
export function renderMobileHeadersNotice(parent: HTMLElement, host: BlockHost, filePath: string, block: NoteBlock): void {
	const headers = unsendableHeaders(block, Platform.isMobileApp);
	if (headers.length === 0) return;
	const key = blockKey(block);
	renderNoCustomHeaders(parent, {
		headers,
		// The block as it is now (it may have been edited since it was drawn).
		runWithoutHeaders: () =>
			void host.notes.blocks(filePath).then(async (blocks) => {
				const current = blocks.find((b) => blockKey(b) === key);
				if (!current) return notify(t("blockGone", { key, path: filePath }));
				await host.engine.run(filePath, blocks, [current], { kindOptions: { websocket: { dropHeaders: true } } });
			}),
	});
}
