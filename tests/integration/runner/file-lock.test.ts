import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeLockOptions, nodeStorage } from "../../../src/cli/node-storage";
import { withFileLock } from "../../../src/runner/file-lock";

let dir: string;
let path: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-lock-"));
	path = join(dir, "history.sqlite");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const me = nodeLockOptions();
const held = (o: object) => writeFileSync(`${path}.lock`, JSON.stringify(o));

describe("history lock file", () => {
	it("holds the lock while the work runs and removes it after, also when the work throws", async () => {
		await withFileLock(nodeStorage, path, () => {
			expect(JSON.parse(readFileSync(`${path}.lock`, "utf8"))).toMatchObject({ pid: process.pid });
			return Promise.resolve();
		}, me);
		expect(existsSync(`${path}.lock`)).toBe(false);
		await expect(withFileLock(nodeStorage, path, () => Promise.reject(new Error("boom")), me)).rejects.toThrow("boom");
		expect(existsSync(`${path}.lock`)).toBe(false);
	});

	it("waits for a live lock and gives up with a message naming its owner", async () => {
		held({ pid: process.pid, host: me.owner.host, time: Date.now() });
		let ran = false;
		await expect(withFileLock(nodeStorage, path, async () => void (ran = true), { ...me, timeoutMs: 150 })).rejects.toThrow(`locked by process ${process.pid}`);
		expect(ran).toBe(false);
		expect(existsSync(`${path}.lock`)).toBe(true);
	});

	it("serialises two writers: the second runs after the first releases", async () => {
		const order: string[] = [];
		let release!: () => void;
		const first = withFileLock(nodeStorage, path, () => new Promise<void>((r) => { order.push("first in"); release = () => { order.push("first out"); r(); }; }), me);
		await new Promise((r) => setTimeout(r, 20));
		const second = withFileLock(nodeStorage, path, async () => void order.push("second"), me);
		await new Promise((r) => setTimeout(r, 60));
		release();
		await Promise.all([first, second]);
		expect(order).toEqual(["first in", "first out", "second"]);
	});

	it.each([
		["older than the staleness limit", { pid: process.pid, host: "this", time: Date.now() - 60_000 }],
		["unreadable", "not json"],
	])("takes over a lock that is %s", async (_why, content) => {
		if (typeof content === "string") writeFileSync(`${path}.lock`, content);
		else held(content);
		let ran = false;
		await withFileLock(nodeStorage, path, async () => void (ran = true), { ...me, timeoutMs: 150 });
		expect(ran).toBe(true);
	});

	it("waits for a lock that is still being written (created empty, its owner written a moment later) instead of taking it over", async () => {
		writeFileSync(`${path}.lock`, "");
		setTimeout(() => held({ pid: process.pid, host: me.owner.host, time: Date.now() }), 100);
		let ran = false;
		await expect(withFileLock(nodeStorage, path, async () => void (ran = true), { ...me, timeoutMs: 400 })).rejects.toThrow(`locked by process ${process.pid}`);
		expect(ran).toBe(false);
	});

	it("judges a process id only on its own machine (a synced vault's lock from elsewhere waits for its age)", async () => {
		held({ pid: 999_999_999, host: "another-machine", time: Date.now() });
		await expect(withFileLock(nodeStorage, path, () => Promise.resolve(), { ...me, timeoutMs: 100 })).rejects.toThrow("locked by process 999999999");
	});
});
