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

	it("keeps a run for references when the loaded runner says nothing about it", () => {
		const runner = onFirstUse<HttpNoteBlock>(() => ({ run: () => Promise.resolve(done), read: () => ({ ok: false, message: "x" }) }));
		expect(runner.keepsForReferences?.({ db: { explain: "plan" } } as never)).toBe(true);
	});

	it("says whether its kind exports without loading it: the preparation is handed apart", () => {
		const probe = counted();
		const prepared = { ok: false as const, error: { code: "invalid_block" as const, message: "m" }, notRun: [] };
		const exporting = onFirstUse(probe.load, () => prepared);
		expect("prepareExport" in onFirstUse(probe.load)).toBe(false);
		expect(exporting.prepareExport?.({} as HttpNoteBlock, {} as never)).toBe(prepared);
		expect(probe.loads).toBe(0);
	});
});
