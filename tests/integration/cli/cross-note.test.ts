import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunResultJson } from "../../../src/cli/result-json";
import { expectBuiltCli, runCli } from "../../support/cli-process";

jest.setTimeout(60_000);

/** The API on 127.0.0.1: /login gives a token for the user it is told, /orders answers only that token; every request is counted. */
let server: Server;
let base: string;
const seen: string[] = [];
let vault: string;

beforeAll(async () => {
	expectBuiltCli();
	server = createServer((req, res) => {
		seen.push(`${req.method} ${req.url}`);
		const url = new URL(req.url ?? "/", "http://x");
		res.setHeader("Content-Type", "application/json");
		if (url.pathname === "/login") return res.end(JSON.stringify({ token: `tok-${url.searchParams.get("user")}` }));
		if (url.pathname === "/orders") return res.writeHead(req.headers.authorization === "Bearer tok-ada" ? 200 : 401).end("[]");
		res.writeHead(404).end("{}");
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	vault = mkdtempSync(join(tmpdir(), "rb-crossnote-"));
	const settings = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(settings, { recursive: true });
	writeFileSync(join(settings, "user.toml"), `[general]\nenvironment = "dev"\n\n[environments.dev]\nbase_url = "${base}"\n`);
	const note = (path: string, text: string) => {
		mkdirSync(join(vault, path, ".."), { recursive: true });
		writeFileSync(join(vault, path), text);
	};
	note("APIs/Auth.md", "# Auth\n\n```http\n@user = ada\n```\n\n```http alias=login\nPOST {{base_url}}/login?user={{user}}\n```\n");
	note("Orders.md", "# Orders\n\n```http alias=orders\nGET {{base_url}}/orders\nAuthorization: Bearer {{[[Auth]]#login.response.body.$.token}}\n```\n");
	note("Loop/A.md", "```http alias=a\nGET {{base_url}}/a?b={{[[B]]#b.response.status}}\n```\n");
	note("Loop/B.md", "```http alias=b\nGET {{base_url}}/b?a={{[[A]]#a.response.status}}\n```\n");
});

afterAll(async () => {
	await new Promise((r) => server.close(r));
	rmSync(vault, { recursive: true, force: true });
});

describe("runnable-blocks run: references to other notes", () => {
	it("runs the other note's block first, with its own file variables, and sends its token", async () => {
		seen.length = 0;
		const { code, stdout } = await runCli(["run", join(vault, "Orders.md"), "--json"]);
		const results = JSON.parse(stdout) as RunResultJson[];
		expect(results.map((r) => [r.alias, r.state, r.status])).toEqual([["orders", "done", 200]]);
		expect(code).toBe(0);
		expect(seen).toEqual(["POST /login?user=ada", "GET /orders"]);
	});

	it("reports a cycle across notes with its chain and sends nothing", async () => {
		seen.length = 0;
		const { code, stdout } = await runCli(["run", join(vault, "Loop/A.md")]);
		expect(stdout).toContain("Reference cycle: Loop/A#a → Loop/B#b → Loop/A#a");
		expect(code).toBe(1);
		expect(seen).toEqual([]);
	});
});
