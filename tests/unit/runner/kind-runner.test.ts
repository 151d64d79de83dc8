import type { HttpNoteBlock } from "../../../src/blocks";
import { onFirstUse, type BlockRunContext, type KindRunner } from "../../../src/runner/kind-runner";
import type { BlockResult } from "../../../src/runner/result";

const done: BlockResult = { kind: "http", state: "done" } as BlockResult;

function counted(): { loads: number; load: () => KindRunner<HttpNoteBlock> } {
	const probe = { loads: 0, load: () => {
		probe.loads++;
		return { run: () => Promise.resolve(done), read: () => ({ ok: true as const, value: "v" }), keepsForReferences: () => false };
	} };
	return probe;
}

describe("a kind's runner loaded on first use", () => {
	it("loads nothing until it is asked, then loads once for every later call", async () => {
		const probe = counted();
		const runner = onFirstUse(probe.load);
		expect(probe.loads).toBe(0);
		await expect(runner.run({} as HttpNoteBlock, {} as BlockRunContext)).resolves.toBe(done);
		expect(runner.read(done as never, { alias: "a", segments: [] } as never)).toEqual({ ok: true, value: "v" });
		expect(runner.keepsForReferences?.({})).toBe(false);
		expect(probe.loads).toBe(1);
	});

	it("loads when asked ahead of a run (a block on screen), and the run then loads nothing more", async () => {
		const probe = counted();
		const runner = onFirstUse(probe.load);
		runner.load?.();
		expect(probe.loads).toBe(1);
		runner.load?.();
		await runner.run({} as HttpNoteBlock, {} as BlockRunContext);
		expect(probe.loads).toBe(1);
	});

	it("keeps a run for references when the loaded runner says nothing about it", () => {
		const runner = onFirstUse<HttpNoteBlock>(() => ({ run: () => Promise.resolve(done), read: () => ({ ok: false, message: "x" }) }));
		expect(runner.keepsForReferences?.({ db: { explain: "plan" } } as never)).toBe(true);
	});

	it("says whether its kind exports, and to what, without loading it: the export is handed apart", () => {
		const probe = counted();
		const prepared = { ok: false as const, error: { code: "invalid_block" as const, message: "m" }, notRun: [] };
		const writer = { snippet: () => "s", httpFileLines: () => [] };
		const exporting = onFirstUse(probe.load, { prepare: () => prepared, name: "x", formats: ["curl"], writer: () => writer });
		expect("export" in onFirstUse(probe.load)).toBe(false);
		expect(exporting.export?.prepare({} as HttpNoteBlock, {} as never)).toBe(prepared);
		expect(exporting.export?.formats).toEqual(["curl"]);
		expect(exporting.export?.writer()).toBe(writer);
		expect(probe.loads).toBe(0);
	});
});
