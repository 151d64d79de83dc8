/**
 * The cookie jar through the built CLI: dist/cli.js requires tough-cookie from node_modules on
 * the first Set-Cookie (it is not bundled), so this runs the real package the way users get it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RunResultJson } from "../../../src/cli/result-json";
import { CLI, expectBuiltCli } from "../../support/cli-process";

const run = promisify(execFile);

jest.setTimeout(60_000);

let server: http.Server;
let base: string;
let dir: string;

beforeAll(async () => {
	expectBuiltCli();
	server = http.createServer((req, res) => {
		if (req.url === "/login") res.setHeader("Set-Cookie", ["sid=abc123; Path=/; HttpOnly", "theme=dark; Path=/other"]);
		res.writeHead(200, { "Content-Type": "application/json" });
		res.end(JSON.stringify({ cookie: req.headers.cookie ?? null }));
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	dir = mkdtempSync(join(tmpdir(), "rb-cli-cookies-"));
});
afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
	return new Promise<void>((r) => server.close(() => r()));
});

it("sends a Set-Cookie of one block on the next requests (path rules applied), not on a # @no-cookie-jar block", async () => {
	const blocks = [
		["before", "GET {{base}}/me?before"],
		["login", "POST {{base}}/login"],
		["me", "GET {{base}}/me"],
		["alone", "# @no-cookie-jar\nGET {{base}}/me?alone"],
	].map(([alias, text]) => `\`\`\`http alias=${alias}\n${text.replace(/\{\{base\}\}/g, base)}\n\`\`\``);
	writeFileSync(join(dir, "note.md"), blocks.join("\n\n") + "\n");
	const { stdout } = await run(process.execPath, [CLI, "run", join(dir, "note.md"), "--json"], { timeout: 30_000 });
	const sent = (JSON.parse(stdout) as RunResultJson[]).map((r) => [r.alias, (JSON.parse(r.body ?? "null") as { cookie: string | null }).cookie]);
	expect(sent).toEqual([
		["before", null],
		["login", null],
		["me", "sid=abc123"],
		["alone", null],
	]);
});
