/**
 * bench/fuzz — the issue 19 guard for parse optimisations: N generated notes (default 1,000,000;
 * fast-check, fixed seed) parse without throwing, their fences never overlap, and every http
 * block's content parses and serializes back byte for byte. Not a timing: run it after changing
 * the parser. Usage: node bench/run.mjs fuzz [N]
 */
import fc from "fast-check";
import { parseHttpBlock, parseNote, serializeHttpBlock } from "../../src/blocks";

const N = Number(process.argv[2] ?? 1_000_000);
const line = fc.oneof(
	fc.string({ maxLength: 40 }),
	fc.constantFrom(
		"GET https://x/{{a.response.body.$.id}}",
		"POST {{base}}/p HTTP/1.1",
		"Content-Type: application/json",
		"# @name n",
		"?? status == 200",
		"< ./f.json",
		"@v = 1",
		"",
		"  ?q=1",
		"{",
		"}",
		"> {% x %}",
		"/* c */",
		"HTTP/1.1 200 OK",
		"```",
		"~~~",
		"  ```",
		"> ```http alias=a",
		"- ```http timeout=5",
		"```http alias=a alias=b x display=split",
		"```db",
		"```textdiff",
		"\r",
		"\t```http",
	),
);
const eol = fc.constantFrom("\n", "\r\n");
const note = fc.array(fc.tuple(line, eol), { maxLength: 30 }).map((ls) => ls.map(([l, e]) => l + e).join(""));
let blocks = 0;
const t0 = Date.now();
fc.assert(
	fc.property(note, (text) => {
		const parsed = parseNote(text);
		for (let i = 0; i < parsed.length; i++) {
			const b = parsed[i];
			if (i > 0 && b.fence.startLine <= parsed[i - 1].fence.endLine) throw new Error(`fences overlap in ${JSON.stringify(text)}`);
			if (b.kind !== "http") continue;
			blocks++;
			if (serializeHttpBlock(parseHttpBlock(b.fence.content)) !== b.fence.content) throw new Error(`round trip differs: ${JSON.stringify(b.fence.content)}`);
		}
	}),
	{ numRuns: N, seed: 19 },
);
console.log(`${N} generated notes (${blocks} http blocks): parsed, no overlapping fences, http parse → serialize byte-exact (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
