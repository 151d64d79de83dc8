import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { flushOnCrash, flushOwedWrites, reportInternalError } from "../../../src/cli/crash";

describe("internal errors", () => {
	it("are one line naming a report that holds the stack", () => {
		const dir = mkdtempSync(join(tmpdir(), "rb-crash-"));
		try {
			const line = reportInternalError(new RangeError("bad\nsecond line"), ["run", "x.md"], "9.9.9", dir, new Date("2026-01-02T03:04:05.000Z"));
			const m = /^runnable-blocks: internal error: bad \(report: (.+)\)\n$/.exec(line);
			expect(m).not.toBeNull();
			const report = readFileSync((m as RegExpExecArray)[1], "utf8");
			expect(report).toContain("runnable-blocks 9.9.9 internal error, 2026-01-02T03:04:05.000Z");
			expect(report).toContain("argv: run x.md");
			expect(report).toMatch(/RangeError: bad\nsecond line\n\s+at /);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("still say one line when the report cannot be written", () => {
		expect(reportInternalError("weird", [], "1", "/nonexistent/dir")).toBe("runnable-blocks: internal error: weird (no report: /nonexistent/dir is not writable)\n");
	});
});

describe("writes owed at a crash", () => {
	it("are flushed once each, and not after their removal", async () => {
		const done: string[] = [];
		flushOnCrash(() => Promise.resolve(void done.push("history")));
		const remove = flushOnCrash(() => Promise.resolve(void done.push("removed")));
		remove();
		await flushOwedWrites();
		await flushOwedWrites();
		expect(done).toEqual(["history"]);
	});

	it("do not keep a dying process waiting on a write that never ends, nor on one that fails", async () => {
		jest.useFakeTimers();
		try {
			flushOnCrash(() => new Promise<void>(() => undefined));
			flushOnCrash(() => Promise.reject(new Error("disk full")));
			const flushed = flushOwedWrites(3_000);
			let finished = false;
			void flushed.then(() => (finished = true));
			await jest.advanceTimersByTimeAsync(2_999);
			expect(finished).toBe(false);
			await jest.advanceTimersByTimeAsync(1);
			expect(finished).toBe(true);
		} finally {
			jest.useRealTimers();
		}
	});
});
