// The window of a virtualised list of fixed-height rows: the vcs change list, a stream's message lines.

/**
 * The rows to draw, `[start, end)`: those a viewport of `height` pixels scrolled by `scrollTop`
 * shows, plus `overscan` rows each side so a short scroll finds them drawn.
 */
export function visibleRows(scrollTop: number, height: number, rowPx: number, count: number, overscan: number): { start: number; end: number } {
	const first = Math.floor(Math.max(0, scrollTop) / rowPx);
	const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, height)) / rowPx);
	return { start: Math.max(0, Math.min(count, first - overscan)), end: Math.min(count, last + overscan) };
}
