/**
 * The built CLI hashes with Node's native functions in @noble/hashes's place
 * (src/cli/node-hash-functions.ts): Digest answers and response-cache keys through dist/cli.js,
 * against Debian's httpbin.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { RunResultJson } from "../../../src/cli/result-json";
import { expectBuiltCli, runCli } from "../../support/cli-process";
import { startHttpbin, type Httpbin } from "../../support/servers";

jest.setTimeout(60_000);

let bin: Httpbin;
let dir: string;
beforeAll(async () => {
	expectBuiltCli();
	bin = await startHttpbin();
	dir = mkdtempSync(join(tmpdir(), "rb-cli-hashes-"));
});
afterAll(async () => {
	await bin.close();
	rmSync(dir, { recursive: true, force: true });
});

const fence = (alias: string, ...lines: string[]): string => ["```http alias=" + alias, ...lines, "```"].join("\n");

async function runNote(name: string, blocks: string[]): Promise<RunResultJson[]> {
	const note = join(dir, name);
	writeFileSync(note, blocks.join("\n\n") + "\n");
	const { code, stdout, stderr } = await runCli(["run", note, "--json"]);
	expect(stderr).toBe("");
	expect(code).toBe(0);
	return JSON.parse(stdout) as RunResultJson[];
}

describe("hashing in the built CLI", () => {
	it("carries Node's hash functions, not @noble/hashes", () => {
		const built = readFileSync(resolve(__dirname, "../../../dist/cli.js"), "utf8");
		expect(built).toContain("// src/cli/node-hash-functions.ts");
		expect(built).not.toContain("@noble/hashes");
	});

	it.each(["MD5", "SHA-256"])("answers a Digest challenge with %s", async (algorithm) => {
		const results = await runNote(`digest-${algorithm}.md`, [fence("secret", `GET ${bin.url}/digest-auth/auth/user/passwd/${algorithm}`, "Authorization: Digest user passwd")]);
		expect(results.map((r) => [r.state, r.status])).toEqual([["done", 200]]);
		expect(JSON.parse(results[0].body ?? "")).toEqual({ authenticated: true, user: "user" });
	});

	it("keys the response cache: the same GET is served from it, and a write makes it stale", async () => {
		const results = await runNote("cache.md", [
			fence("first", `GET ${bin.url}/anything?b=2&a=1`),
			// Reads run together unless one waits: `@after` makes the cache's answer certain.
			fence("same", "# @after first", `GET ${bin.url}/anything?a=1&b=2`),
			fence("other", "# @after same", `GET ${bin.url}/anything?a=1&b=3`),
			fence("write", `POST ${bin.url}/anything?a=1&b=2`),
			fence("after", `GET ${bin.url}/anything?b=2&a=1`),
		]);
		expect(results.map((r) => [r.alias, r.state])).toEqual([
			["first", "done"],
			["same", "cached"],
			["other", "done"],
			["write", "done"],
			["after", "done"],
		]);
	});
});
