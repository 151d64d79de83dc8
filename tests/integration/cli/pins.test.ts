/**
 * `run --pin` and `run --check-pins` as a user runs them: the built CLI in a child process against
 * the local test server, whose `/items` answer changes with every request it has seen and whose
 * `/json` answer never does. Snapshot testing for APIs: exit 0 while the API answers as pinned, 1
 * with the diff once it does not.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../../support/servers";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

jest.setTimeout(60_000);

let server: TestServer;
let dir: string;

function cli(args: string[]): Promise<CliRun> {
	return runCli(args, { cwd: dir, env: { NO_COLOR: "1", FORCE_COLOR: "" } });
}

function note(name: string, text: string): string {
	const path = join(dir, name);
	writeFileSync(path, text);
	return path;
}

beforeAll(async () => {
	expectBuiltCli();
	server = await startTestServer();
	dir = mkdtempSync(join(tmpdir(), "rb-pins-"));
	mkdirSync(join(dir, ".obsidian"));
});

afterAll(async () => {
	await server.close();
	rmSync(dir, { recursive: true, force: true });
});

describe("run --pin and --check-pins (built CLI)", () => {
	it("pins a response under its block, then checks it: exit 0 while the API answers the same", async () => {
		const path = note("same.md", `# Same\r\n\r\n\`\`\`http alias=list\r\nGET ${server.url}/json\r\n\`\`\`\r\n\r\nEnd.\r\n`);
		const pinned = await cli(["run", path, "--pin"]);
		expect(pinned.code).toBe(0);
		expect(pinned.stderr).toContain("pinned 1 response");
		const text = readFileSync(path, "utf8");
		expect(text).toBe(
			`# Same\r\n\r\n\`\`\`http alias=list\r\nGET ${server.url}/json\r\n\`\`\`\r\n\`\`\`http-response alias=list\r\nHTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{\r\n  "ok": true,\r\n` +
				`  "items": [\r\n    {\r\n      "id": 1,\r\n      "name": "one"\r\n    },\r\n    {\r\n      "id": 2,\r\n      "name": "two"\r\n    }\r\n  ],\r\n  "token": "tok-123"\r\n}\r\n\`\`\`\r\n\r\nEnd.\r\n`,
		);
		await expect(cli(["run", path, "--check-pins"])).resolves.toMatchObject({ code: 0, stderr: expect.stringContaining("the pinned response matches") as unknown });
		// Pinning again rewrites the one fence: the note is as it was.
		expect((await cli(["run", path, "--pin"])).code).toBe(0);
		expect(readFileSync(path, "utf8")).toBe(text);
	});

	it("exits 1 and prints the diff when the API's answer changed since the pin; --pin takes the new answer", async () => {
		const path = note("changed.md", `\`\`\`http alias=items\nGET ${server.url}/items/a\n\`\`\`\n`);
		expect((await cli(["run", path, "--pin"])).code).toBe(0);
		const before = readFileSync(path, "utf8");
		const seen = Number(/"seen": (\d+)/.exec(before)?.[1]);
		const checked = await cli(["run", path, "--check-pins"]);
		expect(checked.code).toBe(1);
		expect(checked.stdout).toContain("--- items (pinned)\n+++ items (now)\n");
		expect(checked.stdout).toMatch(new RegExp(`^-  "seen": ${seen}$`, "m"));
		expect(checked.stdout).toMatch(/^\+ {2}"seen": \d+$/m);
		expect(checked.stderr).toContain("1 of 1 pinned response changed");
		expect(readFileSync(path, "utf8")).toBe(before);
		expect((await cli(["run", path, "--pin"])).code).toBe(0);
		expect(readFileSync(path, "utf8")).not.toBe(before);
		expect(readFileSync(path, "utf8").match(/http-response/g)).toHaveLength(1);
	});

	it("exits 1 when a pinned block gets no response, and 2 for both options at once", async () => {
		const path = note("gone.md", `\`\`\`http alias=gone\nGET ${server.url}/json\n\`\`\`\n\`\`\`http-response alias=gone\nHTTP/1.1 200 OK\n\`\`\`\n`);
		writeFileSync(path, readFileSync(path, "utf8").replace(server.url, "http://127.0.0.1:1"));
		const checked = await cli(["run", path, "--check-pins"]);
		expect(checked.code).toBe(1);
		expect(checked.stderr).toContain("gone: no response to compare with its pin");
		const both = await cli(["run", path, "--pin", "--check-pins"]);
		expect(both.code).toBe(2);
		expect(both.stderr).toContain("--pin and --check-pins exclude each other");
	});
});
