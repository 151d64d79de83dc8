import { dbOf } from "../../runner/db/db-result";
import { StateEffect, StateField, type EditorState, type Extension } from "@codemirror/state";
import { blockKey } from "../../blocks";
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from "@codemirror/view";
import { editorInfoField } from "obsidian";
import { type NoteSession } from "../../runner/session";
import { blocksOf } from "../editor/note-blocks";

type Spot = { line: number; column: number };

const setSpots = StateEffect.define<Spot[]>();
const mark = Decoration.mark({ class: "rb-db-error-at" });

/** The marks for error spots (0-based note line and column) in this document. */
function marksOf(state: EditorState, spots: readonly Spot[]): DecorationSet {
	const ranges = spots
		.filter((s) => s.line < state.doc.lines)
		.map((s) => {
			const line = state.doc.line(s.line + 1);
			const { from, to } = markedSpan(line.text, s.column);
			return to > from ? mark.range(line.from + from, line.from + to) : null;
		})
		.filter((r): r is NonNullable<typeof r> => r !== null)
		.sort((a, b) => a.from - b.from);
	return Decoration.set(ranges);
}

/** The underlines, moved with the text as it is edited until the next run of their block. */
const spotsField = StateField.define<DecorationSet>({
	create: () => Decoration.none,
	update(marks, tr) {
		let next = marks.map(tr.changes);
		for (const e of tr.effects) if (e.is(setSpots)) next = marksOf(tr.state, e.value);
		return next;
	},
	provide: (f) => EditorView.decorations.from(f),
});

/**
 * In Source mode and Live Preview, the spot a failed db run's error points at is underlined in
 * the block's SQL, as Reading view does: the editor follows the note's session (one subscription
 * per db block) and redraws the underlines when a run of one of them ends.
 */
export function dbErrorMarks(session: (filePath: string) => NoteSession): Extension {
	const follower = ViewPlugin.fromClass(
		class {
			private keys = "";
			private unsubscribe: Array<() => void> = [];
			private readonly spots = new Map<string, Spot>();
			private queued = false;
			private destroyed = false;

			constructor(private readonly view: EditorView) {
				this.follow();
			}

			update(u: ViewUpdate): void {
				if (u.docChanged) this.follow();
			}

			/** Subscribes to the note's db blocks (again only when which blocks they are changed). */
			private follow(): void {
				const path = this.view.state.field(editorInfoField, false)?.file?.path ?? "";
				const keys = path ? blocksOf(this.view.state).flatMap((b) => (b.kind === "db" ? [blockKey(b)] : [])) : [];
				const id = `${path}\u0000${keys.join("\u0000")}`;
				if (id === this.keys) return;
				this.keys = id;
				this.stop();
				if (keys.length === 0) return;
				const s = session(path);
				for (const key of keys) {
					this.unsubscribe.push(
						s.subscribe(key, (snapshot) => {
							const at = snapshot.state === "failed" ? dbOf(snapshot)?.errorAt : undefined;
							if (at) this.spots.set(key, at);
							else this.spots.delete(key);
							this.redraw();
						}),
					);
				}
			}

			/** Dispatched in a microtask: a subscription may fire while the view is updating. */
			private redraw(): void {
				if (this.queued) return;
				this.queued = true;
				queueMicrotask(() => {
					this.queued = false;
					if (!this.destroyed) this.view.dispatch({ effects: setSpots.of([...this.spots.values()]) });
				});
			}

			private stop(): void {
				for (const u of this.unsubscribe) u();
				this.unsubscribe = [];
				this.spots.clear();
			}

			destroy(): void {
				this.destroyed = true;
				this.stop();
			}
		},
	);
	return [spotsField, follower];
}

/** The word (or character) an error points at: what gets underlined. */
export function markedSpan(line: string, column: number): { from: number; to: number } {
	const from = Math.min(Math.max(0, column), line.length);
	const word = /^[\w$]+/.exec(line.slice(from));
	return { from, to: from + (word ? word[0].length : Math.min(1, line.length - from)) };
}
