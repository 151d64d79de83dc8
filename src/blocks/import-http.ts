/**
 * A `.http`/`.rest` file of the peers as a note (issue 14 point 4, `runnable-blocks import`):
 * one http fence per request (regions split at `###` lines, as all peers do), file variables
 * in a fence of their own, comment lines before a request kept as Markdown. Pure text → text.
 */

const SEPARATOR = /^[ \t]*###(.*)$/;
const COMMENT = /^[ \t]*(#|\/\/)[ \t]?(.*)$/;
/** `# @name x`, `# @no-redirect`…: directives stay in the request's fence. */
const DIRECTIVE = /^[ \t]*(#|\/\/)[ \t]*@/;
const VARIABLE = /^[ \t]*@[A-Za-z_][A-Za-z0-9_.-]*[ \t]*=/;

/** A fence no line of the content can close. */
function fence(content: string): string {
	const longest = Math.max(2, ...[...content.matchAll(/^[ \t]*(`{3,})/gm)].map((m) => m[1].length));
	return "`".repeat(longest + 1);
}

function fenced(lines: readonly string[]): string {
	const content = lines.join("\n");
	const f = fence(content);
	return `${f}http\n${content}\n${f}`;
}

const trimBlank = (lines: string[]): string[] => {
	let a = 0;
	let b = lines.length;
	while (a < b && lines[a].trim() === "") a++;
	while (b > a && lines[b - 1].trim() === "") b--;
	return lines.slice(a, b);
};

/** The note for a `.http` file's text; `title` (the file's name) heads it. */
export function httpFileToNote(text: string, title: string): string {
	const regions: Array<{ heading: string; lines: string[] }> = [{ heading: "", lines: [] }];
	for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
		const sep = SEPARATOR.exec(line);
		if (sep) regions.push({ heading: sep[1].trim(), lines: [] });
		else regions[regions.length - 1].lines.push(line);
	}
	const out: string[] = [`# ${title}`];
	for (const region of regions) {
		const lines = trimBlank(region.lines);
		if (region.heading) out.push(`## ${region.heading}`);
		if (lines.length === 0) continue;
		// Lead: comments become prose, `@x = v` lines a variables fence; the request starts at the first other line.
		const prose: string[] = [];
		const variables: string[] = [];
		let i = 0;
		for (; i < lines.length; i++) {
			const l = lines[i];
			if (l.trim() === "") continue;
			if (DIRECTIVE.test(l)) break;
			const c = COMMENT.exec(l);
			if (c) prose.push(c[2]);
			else if (VARIABLE.test(l)) variables.push(l.trim());
			else break;
		}
		if (prose.length > 0) out.push(prose.join("\n"));
		if (variables.length > 0) out.push(fenced(variables));
		const request = trimBlank(lines.slice(i));
		if (request.length > 0) out.push(fenced(request));
	}
	return `${out.join("\n\n")}\n`;
}
