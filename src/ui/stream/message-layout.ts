/**
 * Where each message of a growing list sits, in lines: message i starts at line `startOf(i)`.
 * Appending is O(1) and finding the message at a line is a binary search, so 100,000 messages
 * of different heights are placed without measuring any DOM.
 */
export class MessageLayout {
	/** starts[i] is message i's first line; starts[count] is the total. */
	private starts = new Float64Array(1024);
	private n = 0;

	get count(): number {
		return this.n;
	}

	/** Lines of all messages placed so far. */
	get totalLines(): number {
		return this.starts[this.n];
	}

	/** Places one more message of `lines` lines after the others. */
	push(lines: number): void {
		if (this.n + 1 >= this.starts.length) {
			const grown = new Float64Array(this.starts.length * 2);
			grown.set(this.starts);
			this.starts = grown;
		}
		this.starts[this.n + 1] = this.starts[this.n] + lines;
		this.n++;
	}

	/** The first line of message `i` (0 ≤ i ≤ count; `count` gives the end of the last one). */
	startOf(i: number): number {
		return this.starts[i];
	}

	/** The message that line `line` belongs to, clamped to the messages placed (0 when none). */
	messageAt(line: number): number {
		let lo = 0;
		let hi = this.n - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (this.starts[mid] <= line) lo = mid;
			else hi = mid - 1;
		}
		return Math.max(0, lo);
	}

	clear(): void {
		this.n = 0;
	}
}
