/**
 * The spec of src/cli/commands/demo.ts, run in-process on copies of examples/vault in a temporary
 * folder: a demo run writes history and generates the database file, never into the repository.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseNote } from "../../../../src/blocks";
import { demoDirectives, runDemo } from "../../../../src/cli/commands/demo";
import { PLAIN } from "../../../../src/cli/terminal";
import { secretEnvName } from "../../../../src/cli/vault";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { captured } from "../../../support/cli-output";
import { useTempDir } from "../../../support/per-test";

const EXAMPLES = resolve(__dirname, "../../../../examples/vault");
const SECRET = secretEnvName("demo-password");

// The whole example vault runs against the live API: its slow and cancelled blocks take a second or two.
jest.setTimeout(30_000);

const dir = useTempDir("rb-demo-");
let secretBefore: string | undefined;
beforeEach(() => {
	secretBefore = process.env[SECRET];
});
afterEach(() => {
	// The demo sets the demo password's variable for its runs; the next test starts as the last began.
	if (secretBefore === undefined) delete process.env[SECRET];
	else process.env[SECRET] = secretBefore;
});

/** The example vault as the repository has it, without files a local run may have left. */
function copyOfExamples(): string {
	const vault = join(dir(), "vault");
	cpSync(EXAMPLES, vault, { recursive: true, filter: (src) => !src.includes("history.sqlite") && !src.endsWith(".sqlite") && !src.endsWith("main.js") });
	return vault;
}

/** A vault of one note, with the example settings and database source. */
function vaultOf(note: string): string {
	const vault = copyOfExamples();
	for (const f of readdirSync(vault)) if (f.endsWith(".md") && f !== "README.md") rmSync(join(vault, f));
	writeFileSync(join(vault, "note.md"), note);
	return vault;
}

async function demo(vault: string) {
	const { text, out, err } = captured();
	const code = await runDemo(out, err, PLAIN, vault);
	return { code, ...text };
}

describe("demoDirectives", () => {
	const first = (text: string) => demoDirectives(parseNote(text)[0]);

	it.each([
		["# @expect cancelled\n# @cancel-after 600", { expect: "cancelled", cancelAfter: 600 }],
		["# @expect failed", { expect: "failed", cancelAfter: undefined }],
		["# a comment that expects nothing", { expect: null, cancelAfter: undefined }],
		["# @expect maybe", { expect: null, cancelAfter: undefined }],
	])("reads %j from a block's comments", (comments, expected) => {
		expect(first(`\`\`\`http\n${comments}\nGET http://127.0.0.1/x\n\`\`\``)).toEqual(expected);
	});

	it("reads nothing from a block of another kind", () => {
		expect(first("```db\n-- @expect failed\nSELECT 1\n```")).toEqual({ expect: null, cancelAfter: undefined });
	});
});

describe("runDemo", () => {
	it("runs every example note against the bundled API: all end as their notes say, exit 0", async () => {
		const vault = copyOfExamples();
		const { code, out } = await demo(vault);
		expect(out).toMatch(/^Runnable Blocks demo — bookshop API on http:\/\/127\.0\.0\.1:\d+\n/);
		expect(out).toContain(`Vault: ${vault}\n`);
		for (const note of readdirSync(EXAMPLES).filter((f) => f.endsWith(".md") && f !== "README.md")) expect(out).toContain(`\n▶ ${note}\n`);
		expect(out).not.toContain("✗ unexpected");
		const [, total, finished, expected] = /\nDemo: (\d+) blocks run, (\d+) finished, (\d+) ended as expected \(cancelled\/failed on purpose\), 0 unexpected\.\n$/.exec(out) ?? [];
		expect(Number(total)).toBe(Number(finished) + Number(expected));
		// "3 Timeouts and failures": a timeout, a Stop after 600 ms and a refused connection.
		expect(Number(expected)).toBe(3);
		expect(code).toBe(0);
	});

	it("generates the example database from its SQL in the vault it runs, and leaves the repository's examples alone", async () => {
		const before = readdirSync(join(EXAMPLES, "data"));
		const vault = vaultOf("```http\nGET {{base_url}}/books\n```\n");
		await demo(vault);
		expect(readFileSync(join(vault, "data", "bookshop.sqlite")).subarray(0, 15).toString()).toBe("SQLite format 3");
		expect(readdirSync(join(EXAMPLES, "data"))).toEqual(before);
		expect(existsSync(join(vault, ".obsidian", "plugins", "runnable-blocks", "history.sqlite"))).toBe(true);
	});

	it("keeps a database file that is already there", async () => {
		const vault = vaultOf("```http\nGET {{base_url}}/books\n```\n");
		mkdirSync(join(vault, "data"), { recursive: true });
		writeFileSync(join(vault, "data", "bookshop.sqlite"), "kept as it is");
		await demo(vault);
		expect(readFileSync(join(vault, "data", "bookshop.sqlite"), "utf8")).toBe("kept as it is");
	});

	it("closes the API it started when the vault's database cannot be made", async () => {
		const vault = vaultOf("```http\nGET {{base_url}}/books\n```\n");
		rmSync(join(vault, "data"), { recursive: true });
		const { text, out, err } = captured();
		await expect(runDemo(out, err, PLAIN, vault)).rejects.toThrow(/ENOENT.*bookshop\.sql/);
		const url = /bookshop API on (\S+)\n/.exec(text.out)?.[1];
		expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		const node = createNodeTransport();
		const after = await node.send({ method: "GET", url: `${url}/books`, headers: [], body: "", followRedirects: false, timeoutMs: 5000 });
		node.close();
		expect(after).toMatchObject({ kind: "failed", code: "connect_failed" });
	});

	it("names each block that did not end as its note says, and exits 1", async () => {
		const vault = vaultOf(
			[
				"```http alias=fine",
				"# @expect failed",
				"GET {{base_url}}/books",
				"```",
				"",
				"```http",
				"GET http://127.0.0.1:9/nothing-here",
				"```",
				"",
				"```http alias=down",
				"# @expect failed",
				"GET http://127.0.0.1:9/",
				"```",
				"",
				"```http alias=checked",
				"GET {{base_url}}/books",
				"",
				"?? status == 201",
				"```",
				"",
			].join("\n"),
		);
		const { code, out } = await demo(vault);
		expect(out).toContain("  ✗ unexpected: fine ended done, expected failed\n");
		expect(out).toContain("  ✗ unexpected: line 6 ended failed\n");
		expect(out).not.toContain("unexpected: down");
		expect(out).toContain("  ✗ unexpected: checked ended done with a failed assertion\n");
		expect(out).toMatch(/\nDemo: 4 blocks run, 0 finished, 1 ended as expected \(cancelled\/failed on purpose\), 3 unexpected\.\n$/);
		expect(code).toBe(1);
	});

	it("presses Stop where a block says @cancel-after", async () => {
		// The block's own timeout is far away: only the demo's Stop can cancel it in time.
		const { code, out } = await demo(vaultOf("```http alias=stream timeout=60000\n# @expect cancelled\n# @cancel-after 50\nGET {{base_url}}/stream?chunks=200&delay=100\n```\n"));
		expect(out).toMatch(/\nDemo: 1 blocks run, 0 finished, 1 ended as expected/);
		expect(code).toBe(0);
	});

	it.each([
		["the example's when unset", undefined, 0],
		["the user's when set (a wrong one fails the login's assertion)", "wrong", 1],
	])("sends the demo password from the environment: %s", async (_, value, exit) => {
		if (value === undefined) delete process.env[SECRET];
		else process.env[SECRET] = value;
		const login = '```http alias=login\nPOST {{base_url}}/auth/login\nContent-Type: application/json\n\n{"username": "{{username}}", "password": "{{password}}"}\n\n?? status == 200\n```\n';
		await expect(demo(vaultOf(login))).resolves.toMatchObject({ code: exit });
	});
});
