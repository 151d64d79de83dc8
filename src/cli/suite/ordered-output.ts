type Write = (s: string) => void;

/**
 * Output of notes that run at once, printed as if they had run one after another: the first
 * unfinished note writes through (live), the others are held until every note before them
 * has finished. stdout and stderr keep their order within each note.
 */
export class OrderedOutput {
	private head = 0;
	private readonly held = new Map<number, Array<[Write, string]>>();
	private readonly finished = new Set<number>();

	constructor(
		private readonly out: Write,
		private readonly err: Write,
	) {}

	/** The stdout and stderr writers of item `index`. */
	writers(index: number): { out: Write; err: Write } {
		const to = (target: Write) => (s: string) => {
			if (index === this.head) target(s);
			else {
				const chunks = this.held.get(index) ?? [];
				chunks.push([target, s]);
				this.held.set(index, chunks);
			}
		};
		return { out: to(this.out), err: to(this.err) };
	}

	/** Item `index` wrote its last; the next ones print as soon as they are at the head. */
	finish(index: number): void {
		this.finished.add(index);
		while (this.finished.has(this.head)) {
			this.head++;
			for (const [target, s] of this.held.get(this.head) ?? []) target(s);
			this.held.delete(this.head);
		}
	}
}
