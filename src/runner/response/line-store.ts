/**
 * The lines of a text that grows by appends, kept as the appended pieces plus where each line
 * lies in them. A view over millions of lines (a 50 MB JSON body is about 1.5 million) then holds
 * a few hundred strings and one typed array, not a string per line: those kept the garbage
 * collector copying and marking millions of objects while the body was being formatted, in
 * pauses of 60–200 ms.
 */
export class LineStore {
	private texts: string[] = [];
	/** Per line: the index of its text, its start and its end in that text. */
	private places = new Int32Array(3 * 1024);
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
		const at = 3 * i;
		return this.texts[this.places[at]].slice(this.places[at + 1], this.places[at + 2]);
	}

	private add(text: number, start: number, end: number): void {
		let places = this.places;
		const at = 3 * this.count;
		if (at === places.length) {
			places = new Int32Array(places.length * 2);
			places.set(this.places);
			this.places = places;
		}
		places[at] = text;
		places[at + 1] = start;
		places[at + 2] = end;
		this.count++;
	}
}
