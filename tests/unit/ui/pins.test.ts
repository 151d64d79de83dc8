import { parseNote, type NoteBlock } from "../../../src/blocks";
import type { BlockResult } from "../../../src/runner/result";
import { pinsOnRun } from "../../../src/ui/pins";

const block = (info: string, kind = "http"): NoteBlock => parseNote(`\`\`\`${kind} ${info}\nGET http://x\n\`\`\`\n`)[0];
const head = { status: 200, statusText: "OK", httpVersion: "1.1", headers: [], url: "", redirects: 0 };
const run = (over: object): BlockResult => ({ kind: "http", state: "done", receivedBytes: 0, head, ...over });

describe("which runs rewrite their pin", () => {
	it.each<[string, NoteBlock, BlockResult, boolean]>([
		["a successful run of a block with the pin token", block("alias=a pin"), run({}), true],
		["a run served from the cache", block("alias=a pin"), run({ state: "cached" }), true],
		["a 500 is a response too", block("alias=a pin"), run({ head: { ...head, status: 500 } }), true],
		["a block without the token", block("alias=a"), run({}), false],
		["a failed run", block("alias=a pin"), run({ state: "failed", head: undefined }), false],
		["a cancelled run", block("alias=a pin"), run({ state: "cancelled" }), false],
		["a run whose ?? assertion failed", block("alias=a pin"), run({ assertions: [{ line: 1, text: "status == 201", ok: false }] }), false],
		["a run whose assertions passed", block("alias=a pin"), run({ assertions: [{ line: 1, text: "status == 200", ok: true }] }), true],
	])("%s: %s", (_, b, result, pins) => expect(pinsOnRun(b, result)).toBe(pins));
});
