import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportCommand, type ExportOptions } from "../../../../src/cli/commands/export";
import { EXIT, UsageError } from "../../../../src/cli/usage";

let dir: string;
let note: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-export-"));
	mkdirSync(join(dir, ".obsidian", "plugins", "runnable-blocks"), { recursive: true });
	writeFileSync(join(dir, ".obsidian", "plugins", "runnable-blocks", "user.toml"), '[general]\nenvironment = "dev"\n[environments.dev]\nbase = "http://127.0.0.1:8080"\n[environments.prod]\nbase = "https://api.example"\n');
	note = join(dir, "api.md");
	writeFileSync(
		note,
		[
			"```http alias=books",
			"POST {{base}}/books",
			"Content-Type: application/json",
			"",
			'{"title":"it\'s"}',
			"```",
			"```http alias=bad",
			"G@T /x",
			"```",
		].join("\n"),
	);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(opts: Partial<ExportOptions>) {
	const out: string[] = [];
	const err: string[] = [];
	const code = await exportCommand({ file: note, alias: "books", format: "curl", ...opts }, (s) => out.push(s), (s) => err.push(s));
	return { code, out: out.join(""), err: err.join("") };
}

describe("runnable-blocks export", () => {
	it("prints the block as a snippet with the environment's values, sending nothing", async () => {
		const r = await run({});
		expect(r).toEqual({ code: EXIT.ok, out: "curl http://127.0.0.1:8080/books -H 'Content-Type: application/json' --data-raw '{\"title\":\"it'\\''s\"}' --location\n", err: "" });
		expect((await run({ env: "prod", format: "python" })).out).toContain('"https://api.example/books"');
	});

	it("refuses an unknown format, alias or environment, and a block with errors, as usage errors", async () => {
		await expect(run({ format: "wget" })).rejects.toThrow(new UsageError("--format must be one of curl, fetch, python, httpie, http, websocat, ws"));
		await expect(run({ alias: "nope" })).rejects.toThrow(new UsageError('no http, sse or websocket block with alias "nope"'));
		await expect(run({ alias: "bad" })).rejects.toThrow(/^cannot export bad: .*api\.md:8:1: /);
		await expect(run({ env: "staging" })).rejects.toThrow(new UsageError('no environment "staging" (defined: dev, prod)'));
	});
});
