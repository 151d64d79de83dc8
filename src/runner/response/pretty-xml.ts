/**
 * Indents XML/HTML/SVG markup for reading. The text stays text: it is never parsed into a
 * DOM (response markup must not become live). Tags are split at `<`…`>` boundaries; text
 * nodes, comments, CDATA and <script>/<style> contents are copied as they are.
 */
const VOID_HTML = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);
const RAW_TEXT = new Set(["script", "style", "textarea", "pre"]);

export function prettyMarkup(text: string, indent = "  "): string {
	// Already laid out by the server: keep the author's formatting.
	if ((text.match(/\n/g)?.length ?? 0) > text.length / 200) return text;
	const out: string[] = [];
	let depth = 0;
	let i = 0;
	const line = (s: string) => out.push(indent.repeat(depth) + s);
	while (i < text.length) {
		if (text[i] !== "<") {
			const next = text.indexOf("<", i);
			const end = next === -1 ? text.length : next;
			const t = text.slice(i, end).trim();
			if (t) line(t);
			i = end;
			continue;
		}
		const special = ["<!--", "-->"] as const;
		if (text.startsWith(special[0], i) || text.startsWith("<![CDATA[", i)) {
			const close = text.startsWith(special[0], i) ? special[1] : "]]>";
			const end = text.indexOf(close, i);
			const stop = end === -1 ? text.length : end + close.length;
			line(text.slice(i, stop));
			i = stop;
			continue;
		}
		const end = text.indexOf(">", i);
		const stop = end === -1 ? text.length : end + 1;
		const tag = text.slice(i, stop);
		const name = /^<\/?\s*([A-Za-z][\w:.-]*)/.exec(tag)?.[1]?.toLowerCase() ?? "";
		if (tag.startsWith("</")) {
			depth = Math.max(0, depth - 1);
			line(tag);
		} else if (tag.startsWith("<?") || tag.startsWith("<!") || tag.endsWith("/>") || VOID_HTML.has(name)) {
			line(tag);
		} else if (RAW_TEXT.has(name)) {
			const closeTag = new RegExp(`</\\s*${name}\\s*>`, "i");
			const rest = text.slice(stop);
			const m = closeTag.exec(rest);
			const body = m ? rest.slice(0, m.index) : rest;
			line(tag + body + (m ? m[0] : ""));
			i = stop + body.length + (m ? m[0].length : 0);
			continue;
		} else {
			line(tag);
			depth++;
		}
		i = stop;
	}
	return out.join("\n");
}
