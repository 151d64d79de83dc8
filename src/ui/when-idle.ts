/**
 * Runs `work` in the next idle moment of the window, or within `timeout` ms if none comes: work
 * the start leaves for later. Obsidian's desktop and Android have requestIdleCallback; iOS's
 * WebView may not, where a short timer stands in.
 */
export function whenIdle(work: () => void, timeout = 2000): void {
	if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(work, { timeout });
	else window.setTimeout(work, 200);
}
