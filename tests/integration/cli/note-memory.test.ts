/**
 * The note memory through the real CLI against a real local server (issue 28, parts 2 and 3):
 * `# @property` and `{{this.<name>}}` read and write the note file's front matter (types kept,
 * byte-identical after a failed run); `# @poll` shows its attempts on the block's line, exits as
 * its final attempt did, and refuses a POST without `unsafe`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

jest.setTimeout(60_000);

let server: Server;
let base = "";
let vault: string;
/** Requests per path; /ready turns ready on its 4th, /never never does, /fail answers 500, others a JSON quote. */
const served = new Map<string, number>();

function cli(args: string[]): Promise<CliRun> {
	return runCli(args, { cwd: vault, env: { NO_COLOR: "1" } });
}

function note(name: string, ...lines: string[]): string {
	writeFileSync(join(vault, name), lines.join("\n"));
	return name;
}

beforeAll(async () => {
	expectBuiltCli();
	server = createServer((req, res) => {
		const path = (req.url ?? "/").split("?")[0];
		const n = (served.get(path) ?? 0) + 1;
		served.set(path, n);
		if (path === "/ready" || path === "/never") {
			const ready = path === "/ready" && n >= 4;
			res.writeHead(ready ? 200 : 503, { "Content-Type": "application/json" });
			res.end(JSON.stringify({ ready }));
			return;
		}
		res.writeHead(path === "/fail" ? 500 : 200, { "Content-Type": "application/json" });
		res.end(JSON.stringify({ price: 12.5, open: true, tags: ["a", "b"], name: "Widget" }));
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	vault = mkdtempSync(join(tmpdir(), "rb-cli-memory-"));
	mkdirSync(join(vault, ".obsidian"), { recursive: true });
});

beforeEach(() => served.clear());

afterAll(async () => {
	await new Promise<void>((r) => server.close(() => r()));
	rmSync(vault, { recursive: true, force: true });
});

describe("run with # @poll", () => {
	it("polls until the server is ready: exactly 4 requests, the attempts shown, exit 0", async () => {
		const file = note("ready.md", "```http alias=ready", "# @poll every=50ms max=10", `GET ${base}/ready`, "", "?? status == 200", "```");
		const { code, stdout } = await cli(["run", file]);
		expect(served.get("/ready")).toBe(4);
		expect(stdout).toContain("poll passed on attempt 4 of 10 (503 503 503 200)");
		expect(code).toBe(0);
	});

	it("stops at max and exits as its final attempt did: 1, its assertion failing", async () => {
		const file = note("never.md", "```http alias=never", "# @poll every=50ms max=3", `GET ${base}/never`, "", "?? status == 200", "```");
		const { code, stdout } = await cli(["run", file]);
		expect(served.get("/never")).toBe(3);
		expect(stdout).toContain("poll reached max: attempt 3 of 3 (503 503 503)");
		expect(code).toBe(1);
	});

	it("refuses a POST without unsafe, sending nothing, and says why", async () => {
		const file = note("post.md", "```http alias=job", "# @poll every=50ms max=3", `POST ${base}/ready`, "", "?? status == 200", "```");
		const { code, stdout, stderr } = await cli(["run", file]);
		expect(served.size).toBe(0);
		expect(stdout + stderr).toContain("@poll does not repeat POST without unsafe: each attempt would send it again");
		expect(code).toBe(1);
	});
});

describe("run with # @property", () => {
	const block = (path: string, assertion = "?? status == 200") => ["```http alias=quote", "# @property price = {{$.price}}", "# @property open = {{$.open}}", "# @property tags = {{$.tags}}", "# @property label = {{$.name}} in {{this.region}}", `GET ${base}${path}?region={{this.region}}`, "", assertion, "```"];

	it("reads {{this.region}} from the note and writes the properties into its front matter, types kept, the body as it was", async () => {
		const rest = ["", "# Quotes", "", ...block("/quote"), ""].join("\n");
		const file = note("quote.md", "---", "region: eu # kept", "---" + rest);
		const { code, stderr } = await cli(["run", file]);
		expect(stderr).toBe("");
		expect(code).toBe(0);
		expect(readFileSync(join(vault, file), "utf8")).toBe(["---", "region: eu # kept", "price: 12.5", "open: true", "tags:", "  - a", "  - b", "label: Widget in eu", "---"].join("\n") + rest);
	});

	it("gives a note without front matter one", async () => {
		const file = note("bare.md", "```http alias=quote", "# @property price = {{$.price}}", `GET ${base}/quote`, "```");
		expect((await cli(["run", file])).code).toBe(0);
		expect(readFileSync(join(vault, file), "utf8")).toMatch(/^---\nprice: 12\.5\n---\n```http alias=quote\n/);
	});

	it.each([
		["a failing assertion", "/quote", "?? status == 201"],
		["an error status its assertion refuses", "/fail", "?? status == 200"],
	])("leaves the note byte-identical after %s", async (_why, path, assertion) => {
		const text = ["---", "region: eu", "price: 1", "---", ...block(path, assertion)].join("\r\n");
		const file = note("failed.md", text);
		expect((await cli(["run", file])).code).toBe(1);
		expect(readFileSync(join(vault, file), "utf8")).toBe(text);
	});
});
