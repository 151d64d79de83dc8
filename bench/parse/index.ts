/**
 * bench/parse: scanning + parsing a note with 1,000 http blocks, against the floor of
 * splitting the same text into lines. Prints time per block and the ratio to the floor, by wall
 * time (medians of runs) and by CPU time of the process (the two alternated, steadier on a shared
 * machine). Target (issue 19): ≤ 10× the floor.
 */
import { parseNote } from "../../src/blocks";
import { measure, printTable } from "../support/measure";
import { generateNote } from "../support/notes";
import { report } from "../support/report";

const BLOCKS = 1000;
const note = generateNote(BLOCKS);
let sink = 0;
const splitFloor = () => {
	sink += note.split("\n").length;
};
const scanParse = () => {
	sink += parseNote(note).length;
};
const floor = measure("line split (floor)", splitFloor);
const parse = measure("scan + parse", scanParse);

/** CPU milliseconds per call of each, alternating rounds of 10 calls. */
function cpuPerCall(rounds: number): { floor: number; parse: number } {
	const total = { floor: 0, parse: 0 };
	for (let r = 0; r < rounds; r++) {
		for (const [name, fn] of [["floor", splitFloor], ["parse", scanParse]] as const) {
			const c0 = process.cpuUsage();
			for (let i = 0; i < 10; i++) fn();
			const c = process.cpuUsage(c0);
			total[name] += (c.user + c.system) / 1000 / 10 / rounds;
		}
	}
	return total;
}
const cpu = cpuPerCall(10);
if (sink === 0) throw new Error("nothing measured");
printTable([floor, parse], floor);
console.log(`note: ${BLOCKS} blocks, ${(note.length / 1024).toFixed(0)} KiB`);
console.log(`scan + parse: ${((parse.median * 1000) / BLOCKS).toFixed(2)} µs per block, ${(parse.median / floor.median).toFixed(1)}× the line-split floor (target ≤ 10×)`);
console.log(`CPU time: scan + parse ${cpu.parse.toFixed(2)} ms, floor ${cpu.floor.toFixed(2)} ms → ${(cpu.parse / cpu.floor).toFixed(1)}×`);
report("parse", { figure: "scan + parse, 1,000-block note (CPU time)", value: `${cpu.parse.toFixed(1)} ms (${((cpu.parse * 1000) / BLOCKS).toFixed(1)} µs per block)`, baseline: `line split ${cpu.floor.toFixed(2)} ms`, result: `${(cpu.parse / cpu.floor).toFixed(1)}×`, target: "≤ 10×", met: cpu.parse / cpu.floor <= 10 });
report("parse", { figure: "scan + parse, 1,000-block note (wall)", value: `${parse.median.toFixed(1)} ms`, baseline: `line split ${floor.median.toFixed(2)} ms`, result: `${(parse.median / floor.median).toFixed(1)}×`, target: "≤ 10×", met: parse.median / floor.median <= 10 });
