/**
 * Incremental JSON pretty-printer: feed it the body in slices and it returns the indented
 * text for each slice, so a 50 MB body can be formatted a slice at a time between frames
 * instead of in one `JSON.parse` + `JSON.stringify` that freezes the UI.
 * It only re-lays out whitespace; the tokens are copied as they are (invalid JSON comes out
 * readable, never rejected).
 */
export class JsonPrettifier {
	private depth = 0;
	private inString = false;
	private escaped = false;
	/** An opener was just written: the next token decides between `{}` and a new line. */
	private afterOpen = false;

	constructor(private readonly indent = "  ") {}

	push(chunk: string): string {
		const out: string[] = [];
		let i = 0;
		const n = chunk.length;
		while (i < n) {
			if (this.inString) {
				i = this.copyString(chunk, i, out);
				continue;
			}
			const c = chunk.charCodeAt(i);
			// Whitespace between tokens is dropped and rewritten.
			if (c === 32 || c === 9 || c === 10 || c === 13) {
				i++;
				continue;
			}
			if (c === 125 || c === 93) {
				// } ]
				this.depth = Math.max(0, this.depth - 1);
				if (this.afterOpen) this.afterOpen = false;
				else out.push("\n", this.indent.repeat(this.depth));
				out.push(chunk[i]);
				i++;
				continue;
			}
			if (this.afterOpen) {
				out.push("\n", this.indent.repeat(this.depth));
				this.afterOpen = false;
			}
			if (c === 123 || c === 91) {
				// { [
				out.push(chunk[i]);
				this.depth++;
				this.afterOpen = true;
				i++;
			} else if (c === 44) {
				out.push(",\n", this.indent.repeat(this.depth));
				i++;
			} else if (c === 58) {
				out.push(": ");
				i++;
			} else if (c === 34) {
				out.push('"');
				this.inString = true;
				i++;
			} else {
				// A literal (number, true, false, null): copy the run up to the next structural character.
				let j = i + 1;
				while (j < n && !isStructural(chunk.charCodeAt(j))) j++;
				out.push(chunk.slice(i, j));
				i = j;
			}
		}
		return out.join("");
	}

	/** Copies string content up to and including its closing quote (or the end of the chunk). */
	private copyString(chunk: string, i: number, out: string[]): number {
		let j = i;
		const n = chunk.length;
		while (j < n) {
			const c = chunk.charCodeAt(j);
			if (this.escaped) this.escaped = false;
			else if (c === 92) this.escaped = true;
			else if (c === 34) {
				this.inString = false;
				j++;
				break;
			}
			j++;
		}
		out.push(chunk.slice(i, j));
		return j;
	}
}

function isStructural(c: number): boolean {
	return c === 123 || c === 125 || c === 91 || c === 93 || c === 44 || c === 58 || c === 34 || c === 32 || c === 9 || c === 10 || c === 13;
}

/** Whole-text convenience used for small bodies and tests. */
export function prettyJson(text: string, indent = "  "): string {
	return new JsonPrettifier(indent).push(text);
}
