/**
 * bench/parse: scanning + parsing a note with 1,000 http blocks, against the floor of
 * splitting the same text into lines. Prints time per block and the ratio to the floor.
 */
import { parseNote } from "../../src/blocks";
import { measure, printTable } from "../support/measure";

function generateNote(blocks: number): string {
	const parts: string[] = ["# Generated note\n"];
	for (let i = 0; i < blocks; i++) {
		parts.push(`Some prose about request ${i}, with a [[link]] and *emphasis*.\n`);
		parts.push(
			`\`\`\`http alias=req${i} timeout=${1000 + i} display=split\n` +
				`# request ${i}\n` +
				`POST {{base_url}}/items/${i}\n` +
				`    ?page=${i}\n` +
				`    &q=search%20term\n` +
				`Content-Type: application/json\n` +
				`Authorization: Bearer {{login.response.body.$.token}}\n` +
				`X-Request-Id: {{uuid}}\n\n` +
				`{\n  "id": ${i},\n  "name": "item ${i}",\n  "tags": ["a", "b", "c"],\n  "ref": "{{req${Math.max(0, i - 1)}.response.body.$.id}}"\n}\n` +
				"```\n",
		);
	}
	return parts.join("\n");
}

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
