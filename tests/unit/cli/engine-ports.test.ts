import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliPorts, cliTls, dotenvBeside, nodeBodyFiles } from "../../../src/cli/engine-ports";
import { parseSettings } from "../../../src/settings/user-settings";

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

describe("cliTls and dotenvBeside", () => {
	it("reads [tls.*] files from the vault root or as absolute paths, and the passphrase secret from RUNNABLE_BLOCKS_SECRET_<ID>", async () => {
		writeFileSync(join(dir, "files", "ca.pem"), "CA PEM");
		const parsed = parseSettings(`[tls."a.test"]\nca = "files/ca.pem"\ncert = "${join(dir, "files", "ca.pem")}"\nkey = "files/ca.pem"\npassphrase = { secret = "rb-spec-key" }\n[tls."b.test"]\nca = "files/none.pem"\n`);
		if (!parsed.ok) throw new Error("the spec's settings do not parse");
		process.env.RUNNABLE_BLOCKS_SECRET_RB_SPEC_KEY = "pass";
		try {
			const tls = cliTls(parsed.settings, dir);
			await expect(tls(new URL("https://a.test/"))).resolves.toEqual({ ca: "CA PEM", cert: "CA PEM", key: "CA PEM", passphrase: "pass" });
			await expect(tls(new URL("https://b.test/"))).rejects.toThrow('no file "files/none.pem" (user.toml [tls."b.test"])');
			await expect(tls(new URL("https://c.test/"))).resolves.toBeUndefined();
		} finally {
			delete process.env.RUNNABLE_BLOCKS_SECRET_RB_SPEC_KEY;
		}
	});

	it("reads the .env in the note's folder, or says there is none", async () => {
		writeFileSync(join(dir, "files", ".env"), "K=v\n");
		await expect(dotenvBeside(join(dir, "files", "note.md"))).resolves.toBe("K=v\n");
		await expect(dotenvBeside(join(dir, "note.md"))).resolves.toBeNull();
	});
});
