import { parseNote } from "../../../src/blocks";
import { BLOCK_RUNNERS, readResult, runBlock } from "../../../src/runner/block-runners";
import type { BlockRunContext } from "../../../src/runner/kind-runner";

/** A context whose transport must never be reached: these blocks fail before anything is sent. */
const ctx: BlockRunContext = {
	prepare: { env: {}, aliases: new Set(), result: () => undefined, read: readResult },
	deps: {
		transport: { name: "fetch", streams: false, send: () => Promise.reject(new Error("nothing may be sent")) },
		cacheKey: () => "k",
	},
	execute: { filePath: "n.md", historyAlias: "#L1" },
};

describe("the runner of a block's kind", () => {
	it("registers runners for http, db and the streams: textdiff is not built yet", () => {
		expect(Object.keys(BLOCK_RUNNERS)).toEqual(["http", "db", "sse", "websocket"]);
	});

	it("fails a db block where no database ports are given, saying so", async () => {
		const [block] = parseNote("```db\nselect 1\n```");
		await expect(runBlock(block, ctx)).resolves.toEqual({ kind: "db", state: "failed", error: { code: "driver_unavailable", message: "Database blocks are not available here" } });
	});

	it.each([
		["```textdiff mode=wide\na\n=== right ===\nb\n```", 'Line 1: mode "wide" is invalid: use split, unified'],
	])("fails a block whose kind has no runner before sending, saying why: %j", async (md, message) => {
		const [block] = parseNote(md);
		await expect(runBlock(block, ctx)).resolves.toEqual({ state: "failed", error: { code: "invalid_block", message } });
	});

	it("fails an http block that cannot be prepared, naming the reference", async () => {
		const [block] = parseNote("```http\nGET {{base_url}}/a\n```");
		const result = await runBlock(block, ctx);
		expect(result).toMatchObject({ state: "failed", error: { code: "unresolved_reference" } });
	});
});
