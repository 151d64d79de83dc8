/**
 * bench/editor: what one keystroke costs the note model in a 1,000-block note, against the floor
 * of `doc.toString()` on the same document (what any whole-text reader pays). The note model is
 * the `noteBlocks` field every editor feature reads; the full reparse is what each feature paid
 * before it. Target: ≤ 2 ms per keystroke and ≤ 5× the floor.
 */
import { EditorState } from "@codemirror/state";
import { parseNote } from "../../src/blocks";
import { blocksOf, noteBlocks } from "../../src/ui/editor/note-blocks";
import { measure, printTable } from "../support/measure";
import { report } from "../support/report";
import { generateNote } from "../support/notes";

const BLOCKS = 1000;
const note = generateNote(BLOCKS);
let sink = 0;

/** Types one character at `at(state)` per iteration, reading the blocks as a feature would. */
function typing(name: string, at: (text: string) => number, extensions = [noteBlocks], read = (s: EditorState) => blocksOf(s).length) {
	let state = EditorState.create({ doc: note, extensions });
	const pos = at(note);
	// Keystrokes are cheap and noisy: more runs, and warm-up enough for the JIT to settle.
	return measure(
		name,
		() => {
			state = state.update({ changes: { from: pos, insert: "x" } }).state;
			sink += read(state);
		},
		extensions.length ? { warmup: 50, runs: 200 } : undefined,
	);
}

const floorState = EditorState.create({ doc: note });
const floor = measure(
	"doc.toString() (floor)",
	() => {
		sink += floorState.doc.toString().length;
	},
	{ warmup: 50, runs: 200 },
);
const bare = typing("transaction, no note model", (t) => t.indexOf("/items/0"), [], () => 1);
const inBlock = typing("type in the first block", (t) => t.indexOf("/items/0"));
const inProse = typing("type in prose at the top", (t) => t.indexOf("Generated"));
const atEnd = typing("type in the last block", (t) => t.lastIndexOf("/items/"));
const full = typing("full parse per keystroke", (t) => t.indexOf("/items/0"), [], (s) => parseNote(s.doc.toString()).length);
if (sink === 0) throw new Error("nothing measured");

printTable([floor, bare, inBlock, inProse, atEnd, full], floor);
const worst = Math.max(inBlock.median, inProse.median, atEnd.median);
console.log(`note: ${BLOCKS} blocks, ${(note.length / 1024).toFixed(0)} KiB`);
report("editor", { figure: "one keystroke, 1,000-block note (worst case)", value: `${worst.toFixed(2)} ms`, baseline: `doc.toString() ${floor.median.toFixed(2)} ms`, result: `${(worst / floor.median).toFixed(2)}×`, target: "≤ 2 ms and ≤ 5×", met: worst <= 2 && worst / floor.median <= 5 });
console.log(
	`one keystroke: ${worst.toFixed(2)} ms at worst (target ≤ 2 ms), ${(worst / floor.median).toFixed(1)}× the doc.toString() floor (target ≤ 5×); a full parse: ${full.median.toFixed(1)} ms`,
);
