/**
 * bench/parse: scanning + parsing a note with 1,000 http blocks, against the floor of
 * splitting the same text into lines. Prints time per block and the ratio to the floor.
 */
import { parseNote } from "../../src/blocks";
import { measure, printTable } from "../support/measure";
import { generateNote } from "../support/notes";

const BLOCKS = 1000;
const note = generateNote(BLOCKS);
let sink = 0;
const floor = measure("line split (floor)", () => {
	sink += note.split("\n").length;
});
const parse = measure("scan + parse", () => {
	sink += parseNote(note).length;
});
if (sink === 0) throw new Error("nothing measured");
printTable([floor, parse], floor);
console.log(`note: ${BLOCKS} blocks, ${(note.length / 1024).toFixed(0)} KiB`);
console.log(`scan + parse: ${((parse.median * 1000) / BLOCKS).toFixed(2)} µs per block, ${(parse.median / floor.median).toFixed(1)}× the line-split floor`);
