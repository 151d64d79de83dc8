import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliDbModules, nodeSqliteFile } from "../../../src/cli/db-modules";
import { DbDrivers } from "../../../src/runner/db/connect";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-db-modules-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

describe("the CLI's SQLite files", () => {
	it("reads a relative path from the base folder, and a missing file as null", async () => {
		mkdirSync(join(dir, "data"));
		writeFileSync(join(dir, "data", "app.sqlite"), Uint8Array.from([1, 2, 3]));
		await expect(nodeSqliteFile(dir, "data/app.sqlite").read()).resolves.toEqual(Uint8Array.from([1, 2, 3]));
		await expect(nodeSqliteFile(dir, "data/none.sqlite").read()).resolves.toBeNull();
		expect(nodeSqliteFile(dir, "data/app.sqlite").path).toBe("data/app.sqlite");
	});

	it("reads an absolute path as it is, whatever the base", async () => {
		writeFileSync(join(dir, "abs.sqlite"), Uint8Array.from([9]));
		await expect(nodeSqliteFile("/elsewhere", join(dir, "abs.sqlite")).read()).resolves.toEqual(Uint8Array.from([9]));
	});

	it("replaces the file whole and leaves no temporary file beside it", async () => {
		writeFileSync(join(dir, "t.sqlite"), "old");
		await nodeSqliteFile(dir, "t.sqlite").write(new TextEncoder().encode("new"));
		expect(readFileSync(join(dir, "t.sqlite"), "utf8")).toBe("new");
		expect(readdirSync(dir)).toEqual(["t.sqlite"]);
	});
});

describe("the CLI's database ports", () => {
	it("reads a secret from RUNNABLE_BLOCKS_SECRET_<ID>", () => {
		process.env.RUNNABLE_BLOCKS_SECRET_PG_MAIN = "pw";
		try {
			expect(cliDbModules(dir).readSecret("pg-main")).toBe("pw");
			expect(cliDbModules(dir).readSecret("unset-one")).toBeUndefined();
		} finally {
			delete process.env.RUNNABLE_BLOCKS_SECRET_PG_MAIN;
		}
	});

	it("runs a writable SQLite connection on a file of the folder and saves it there", async () => {
		const modules = cliDbModules(dir);
		const drivers = new DbDrivers(modules);
		const got = drivers.get("local", { type: "sqlite", path: "made.sqlite", readonly: false });
		expect(got.ok).toBe(true);
		if (!got.ok) return;
		const out = await got.driver.run([{ text: "CREATE TABLE t (id INTEGER)", params: [], kind: "ddl" }], { timeoutMs: 10_000, maxRows: 10 });
		expect(out.kind).toBe("done");
		expect(readFileSync(join(dir, "made.sqlite")).subarray(0, 15).toString()).toBe("SQLite format 3");
		await drivers.closeAll();
	});

	it("reads the built-in history from the run history it is given, and says when there is none", async () => {
		await expect(cliDbModules(dir, { snapshot: () => Promise.resolve(Uint8Array.from([7])) }).historyFile!().read()).resolves.toEqual(Uint8Array.from([7]));
		await expect(cliDbModules(dir).historyFile!().read()).rejects.toThrow("run history is not kept here");
	});

	it("hands over the server driver modules on demand", () => {
		const modules = cliDbModules(dir);
		expect(typeof modules.pg!().Pool).toBe("function");
		expect(typeof modules.mysql!().createPool).toBe("function");
	});
});
