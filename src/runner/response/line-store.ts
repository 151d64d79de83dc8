/**
 * The lines of a text that grows by appends, kept as the appended pieces plus where each line
 * lies in them. A view over millions of lines (a 50 MB JSON body is about 1.5 million) then holds
 * a few hundred strings and one typed array, not a string per line: those kept the garbage
 * collector copying and marking millions of objects while the body was being formatted, in
 * pauses of 60–200 ms. The places are kept in fixed-size chunks, never one array grown by
 * doubling: copying it (12 MB at a million lines) was the longest task of a 50 MB body.
 */
/** Lines per chunk of places: 2^14, so a chunk is 192 KB. */
const CHUNK_BITS = 14;
const CHUNK_LINES = 1 << CHUNK_BITS;

export class LineStore {
	private texts: string[] = [];
	/** Per line: the index of its text, its start and its end in that text; CHUNK_LINES lines per array. */
	private readonly chunks: Int32Array[] = [];
	private count = 0;
	private partial = "";

	/** Complete lines so far (the trailing partial line is `pending`). */
	get length(): number {
		return this.count;
	}

	/** The text after the last line break: a line still waiting for its end. */
	get pending(): string {
		return this.partial;
	}

	/** Adds text; the part after its last line break waits for the next append or `finish`. */
	append(text: string): void {
		if (text === "") return;
		const buf = this.partial + text;
		let nl = buf.indexOf("\n");
		if (nl === -1) {
			this.partial = buf;
			return;
		}
		const t = this.texts.length;
		this.texts.push(buf);
		let start = 0;
		while (nl !== -1) {
			this.add(t, start, nl);
			start = nl + 1;
			nl = buf.indexOf("\n", start);
		}
		this.partial = buf.slice(start);
	}

	/** Ends the text: its pending part becomes the last line (an empty text is one empty line). */
	finish(): void {
		if (this.partial !== "" || this.count === 0) {
			this.texts.push(this.partial);
			this.add(this.texts.length - 1, 0, this.partial.length);
		}
		this.partial = "";
	}

	/** Line `i` (0-based, below `length`). */
	line(i: number): string {
		const places = this.chunks[i >>> CHUNK_BITS];
		const at = 3 * (i & (CHUNK_LINES - 1));
		return this.texts[places[at]].slice(places[at + 1], places[at + 2]);
	}

	private add(text: number, start: number, end: number): void {
		const within = this.count & (CHUNK_LINES - 1);
		if (within === 0) this.chunks.push(new Int32Array(3 * CHUNK_LINES));
		const places = this.chunks[this.chunks.length - 1];
		const at = 3 * within;
		places[at] = text;
		places[at + 1] = start;
		places[at + 2] = end;
		this.count++;
	}
}
