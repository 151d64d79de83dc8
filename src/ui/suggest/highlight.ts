/**
 * Appends `text` to `el` with the matched ranges (`[start, end)`, sorted, from the fuzzy matcher)
 * marked the way Obsidian marks its own fuzzy results, so every picker of the plugin reads alike.
 */
export function appendHighlighted(el: HTMLElement, text: string, matches: ReadonlyArray<readonly [number, number]>): void {
	let at = 0;
	for (const [from, to] of matches) {
		if (from > at) el.appendText(text.slice(at, from));
		el.createSpan({ cls: "suggestion-highlight", text: text.slice(from, to) });
		at = to;
	}
	if (at < text.length) el.appendText(text.slice(at));
}
