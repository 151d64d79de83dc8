import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliPorts, nodeBodyFiles } from "../../../src/cli/engine-ports";

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-engine-ports-"));
	mkdirSync(join(dir, "files"));
	writeFileSync(join(dir, "files", "a.bin"), new Uint8Array([1, 2, 3]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("nodeBodyFiles", () => {
	it("finds and reads vault paths below the vault root", async () => {
		const files = nodeBodyFiles(dir);
		expect(files.locate?.("files/a.bin")).toBe(join(dir, "files", "a.bin"));
		expect(await files.read("files/a.bin")).toEqual(new Uint8Array([1, 2, 3]));
	});

	it("reads absolute paths as they are, and outside a vault every path is the file system's", async () => {
		expect(await nodeBodyFiles(dir).read(join(dir, "files", "a.bin"))).toEqual(new Uint8Array([1, 2, 3]));
		expect(nodeBodyFiles(null).locate?.(join(dir, "files", "a.bin"))).toBe(join(dir, "files", "a.bin"));
	});

	it("has no file for a missing path, a folder, or a path through a file", async () => {
		const files = nodeBodyFiles(dir);
		expect(files.locate?.("files/none.bin")).toBeNull();
		expect(files.locate?.("files")).toBeNull();
		expect(await files.read("files/none.bin")).toBeNull();
		expect(await files.read("files/a.bin/x")).toBeNull();
	});
});

describe("cliPorts", () => {
	const env = { name: "dev", variables: { base: "http://127.0.0.1", token: "t" }, secretValues: ["t"], secrets: { names: new Set(["token"]), unset: new Set(["key"]) } };

	it("gives the engine the chosen environment", async () => {
		const ports = cliPorts({ historyPath: null, useCache: false, env, defaultTimeoutMs: 1234, warn: () => undefined });
		try {
			expect(ports.environment()).toEqual({ name: "dev", variables: { base: "http://127.0.0.1", token: "t" }, secretValues: ["t"], secretNames: ["token"], unsetSecretNames: ["key"] });
			expect(ports.defaultTimeoutMs()).toBe(1234);
			expect(ports.caching).toBe(false);
			expect(ports.history()).toBeNull();
			expect(ports.transport().name).toBe("node");
		} finally {
			await ports.close?.();
		}
	});
});
