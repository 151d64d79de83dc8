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
	vault = mkdtempSync(join(tmpdir(), "rb-import-"));
	const settings = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(settings, { recursive: true });
	writeFileSync(join(settings, "user.toml"), `[general]\nenvironment = "dev"\n\n[environments.dev]\nbase_url = "${base}"\n`);
	const file = (path: string, text: string) => {
		mkdirSync(join(vault, path, ".."), { recursive: true });
		writeFileSync(join(vault, path), text);
	};
	const orders = "```http alias=orders\nGET {{base_url}}/orders\nAuthorization: Bearer {{login.response.body.$.token}}\n```\n";
	// Two blocks need the imported login: it still runs once.
	const twice = "```http alias=again\nGET {{base_url}}/orders?again=1\nAuthorization: Bearer {{login.response.body.$.token}}\n```\n";
	file("APIs/auth.http", "@user = ada\n\n### Log in\n# @name login\nPOST {{base_url}}/login?user={{user}}\n");
	file("APIs/Orders.md", `# Orders\n\n\`\`\`http\n# @import ./auth.http\nGET {{base_url}}/health\n\`\`\`\n\n${orders}\n${twice}`);
	file("Notes/Auth.md", "```http\n@user = ada\n```\n\n```http alias=login\nPOST {{base_url}}/login?user={{user}}\n```\n");
	file("Notes/Orders.md", `\`\`\`http\n// @import ./Auth\nGET {{base_url}}/health\n\`\`\`\n\n${orders}`);
	file("Loop/a.http", "# @import ./b.http\n# @name a\nGET {{base_url}}/a?b={{b.response.status}}\n");
	file("Loop/b.http", "# @import ./a.http\n# @name b\nGET {{base_url}}/b?a={{a.response.status}}\n");
	file("Loop/Start.md", "```http alias=start\n# @import ./a.http\nGET {{base_url}}/start?a={{a.response.status}}\n```\n");
	file("Missing.md", `# Missing\n\n\`\`\`http alias=orders\n# @import ./gone.http\nGET {{base_url}}/orders\nAuthorization: Bearer {{login.response.body.$.token}}\n\`\`\`\n`);
});

afterAll(async () => {
	await new Promise((r) => server.close(r));
	rmSync(vault, { recursive: true, force: true });
});

describe("runnable-blocks run: # @import", () => {
	it("runs an imported .http file's block once, with that file's variables, for every block that needs it", async () => {
		seen.length = 0;
		const { code, stdout } = await runCli(["run", join(vault, "APIs/Orders.md"), "--alias", "orders", "--alias", "again", "--json"]);
		const results = JSON.parse(stdout) as RunResultJson[];
		expect(results.map((r) => [r.alias, r.state, r.status])).toEqual([
			["orders", "done", 200],
			["again", "done", 200],
		]);
		expect(code).toBe(0);
		expect(seen.filter((s) => s.startsWith("POST /login"))).toEqual(["POST /login?user=ada"]);
		expect(seen).toHaveLength(3);
	});

	it("imports a note named without .md", async () => {
		seen.length = 0;
		const { code, stdout } = await runCli(["run", join(vault, "Notes/Orders.md"), "--alias", "orders", "--json"]);
		expect((JSON.parse(stdout) as RunResultJson[]).map((r) => [r.alias, r.state, r.status])).toEqual([["orders", "done", 200]]);
		expect(code).toBe(0);
		expect(seen).toEqual(["POST /login?user=ada", "GET /orders"]);
	});

	it("reports a cycle through imports with its chain and sends nothing", async () => {
		seen.length = 0;
		const { code, stdout } = await runCli(["run", join(vault, "Loop/Start.md")]);
		expect(stdout).toContain("Reference cycle: Loop/a.http#a → Loop/b.http#b → Loop/a.http#a");
		expect(code).toBe(1);
		expect(seen).toEqual([]);
	});

	it("fails at the import's line and column when the file is missing, and sends nothing", async () => {
		seen.length = 0;
		const { code, stdout } = await runCli(["run", join(vault, "Missing.md")]);
		expect(stdout).toContain("Cannot import (line 4, column 3: @import ./gone.http): no file gone.http in the vault");
		expect(code).toBe(1);
		expect(seen).toEqual([]);
	});
});
