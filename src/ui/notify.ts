import { Notice } from "obsidian";

/** A notice that says which plugin speaks (messages are sentence case, without the prefix). */
export function notify(message: string, timeoutMs?: number): void {
	new Notice(`Runnable Blocks: ${message}`, timeoutMs);
}
