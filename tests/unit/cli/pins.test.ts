import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNote } from "../../../src/blocks";
import { settlePins, type PinsInput } from "../../../src/cli/pins";
import type { BlockResult } from "../../../src/runner/result";
import type { BlockRun } from "../../../src/runner/run-note";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "rb-pins-unit-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const NOTE = "```http alias=a\nGET http://127.0.0.1:1/a\n```\n\ntext\n";

function answered(text: string, body: string, alias = "a"): BlockRun {
	const block = parseNote(text).find((b) => b.alias === alias)!;
	const result = { kind: "http", state: "done", receivedBytes: body.length, head: { status: 200, statusText: "OK", httpVersion: "1.1", headers: [["content-type", "text/plain"]], url: "", redirects: 0 }, body: new TextEncoder().encode(body) } as BlockResult;
	return { block, result, dependency: false };
}

function input(file: string, text: string, runs: BlockRun[], mode: PinsInput["mode"], out: string[] = []): PinsInput {
	return { mode, file, text, runs, secrets: ["s3cret"], diffOut: (s) => out.push(s), colour: false };
}

describe("pins after a CLI run", () => {
	it("writes the pins into the note, secrets masked, and leaves no temporary file", () => {
		const file = join(dir, "n.md");
		writeFileSync(file, NOTE);
		const err: string[] = [];
		expect(settlePins(input(file, NOTE, [answered(NOTE, "hi s3cret")], "pin"), (s) => err.push(s)).code).toBe(0);
		expect(readFileSync(file, "utf8")).toBe("```http alias=a\nGET http://127.0.0.1:1/a\n```\n```http-response alias=a\nHTTP/1.1 200 OK\ncontent-type: text/plain\n\nhi •••\n```\n\ntext\n");
		expect(readdirSync(dir)).toEqual(["n.md"]);
	});

	it("writes nothing when the note changed during the run, and says so", () => {
		const file = join(dir, "n.md");
		writeFileSync(file, NOTE + "typed meanwhile\n");
		const err: string[] = [];
		expect(settlePins(input(file, NOTE, [answered(NOTE, "hi")], "pin"), (s) => err.push(s)).code).toBe(1);
		expect(readFileSync(file, "utf8")).toBe(NOTE + "typed meanwhile\n");
		expect(err.join("")).toContain("the note changed during the run");
	});

	it("skips blocks run only because another referenced them", () => {
		const file = join(dir, "n.md");
		writeFileSync(file, NOTE);
		expect(settlePins(input(file, NOTE, [{ ...answered(NOTE, "hi"), dependency: true }], "pin"), () => undefined).code).toBe(0);
		expect(readFileSync(file, "utf8")).toBe(NOTE);
	});

	it("checks a run against its pin: 0 when it matches, 1 with a unified diff when it does not", () => {
		const pinned = "```http alias=a\nGET http://x\n```\n```http-response alias=a\nHTTP/1.1 200 OK\ncontent-type: text/plain\n\nhi\n```\n";
		const file = join(dir, "n.md");
		writeFileSync(file, pinned);
		expect(settlePins(input(file, pinned, [answered(pinned, "hi")], "check"), () => undefined).code).toBe(0);
		const out: string[] = [];
		expect(settlePins(input(file, pinned, [answered(pinned, "ho")], "check", out), () => undefined).code).toBe(1);
		expect(out.join("")).toBe("--- a (pinned)\n+++ a (now)\n@@ -1,4 +1,4 @@\n HTTP 200\n content-type: text/plain\n \n-hi\n+ho\n");
		expect(readFileSync(file, "utf8")).toBe(pinned);
	});

	it("hands each checked block's diff to the caller (a suite's report): empty when the pin matches", () => {
		const pinned = "```http alias=a\nGET http://x\n```\n```http-response alias=a\nHTTP/1.1 200 OK\ncontent-type: text/plain\n\nhi\n```\n";
		const file = join(dir, "n.md");
		writeFileSync(file, pinned);
		const same = settlePins(input(file, pinned, [answered(pinned, "hi")], "check"), () => undefined);
		expect(same.diffs.map((d) => [d.block.alias, d.diff])).toEqual([["a", ""]]);
		const changed = settlePins(input(file, pinned, [answered(pinned, "ho")], "check"), () => undefined);
		expect(changed.diffs.map((d) => [d.block.alias, d.diff.split("\n").filter((l) => /^[-+][^-+]/.test(l))])).toEqual([["a", ["-hi", "+ho"]]]);
		expect(settlePins(input(file, pinned, [answered(pinned, "ho")], "pin"), () => undefined).diffs).toEqual([]);
	});
});
