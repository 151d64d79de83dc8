/** Bodies in declared charsets through the CLI (`--json`) and chaining, against a real server. */
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

const BODIES: Record<string, [string, Buffer]> = {
	"/latin1": ["text/plain; charset=iso-8859-1", Buffer.from("café señor", "latin1")],
	"/cp1252": ["text/plain; charset=windows-1252", Buffer.from([0x80, 0x20, 0x35, 0x20, 0x93, 0x71, 0x94])],
	"/sjis": ["text/plain; charset=shift_jis", Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea])],
	"/utf16": ["application/json; charset=utf-16le", Buffer.from('{"name":"Zoë"}', "utf16le")],
	// Valid UTF-8 for 20 KiB, then one invalid byte: past any first-bytes sample.
	"/late-invalid": ["text/plain; charset=utf-8", Buffer.concat([Buffer.from("é".repeat(10_240)), Buffer.from([0xff])])],
};

let server: http.Server;
let base: string;
let dir: string;
const echoed: string[] = [];

beforeAll(async () => {
	expectBuiltCli();
	server = http.createServer((req, res) => {
		if (req.url === "/echo") {
			const chunks: Buffer[] = [];
			req.on("data", (c: Buffer) => chunks.push(c));
			req.on("end", () => {
				echoed.push(Buffer.concat(chunks).toString("utf8"));
				res.end("ok");
			});
			return;
		}
		const found = BODIES[req.url ?? ""];
		res.writeHead(found ? 200 : 404, { "Content-Type": found?.[0] ?? "text/plain" });
		res.end(found?.[1] ?? "");
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	dir = mkdtempSync(join(tmpdir(), "rb-charset-"));
});
afterAll(async () => {
	await new Promise<void>((r) => server.close(() => r()));
	rmSync(dir, { recursive: true, force: true });
});

async function runJson(note: string): Promise<RunResultJson[]> {
	const file = join(dir, `n${Math.random().toString(36).slice(2)}.md`);
	writeFileSync(file, note);
	const { stdout } = await run(process.execPath, [CLI, "run", file, "--json"]);
	return JSON.parse(stdout) as RunResultJson[];
}

const block = (alias: string, path: string) => `\`\`\`http alias=${alias}\nGET ${base}${path}\n\`\`\``;

describe("charsets through the CLI", () => {
	it("--json gives the body decoded in its declared charset", async () => {
		const results = await runJson([block("l", "/latin1"), block("w", "/cp1252"), block("s", "/sjis"), block("u", "/utf16")].join("\n\n"));
		expect(results.map((r) => [r.alias, r.body, r.bodyBase64])).toEqual([
			["l", "café señor", undefined],
			["w", "€ 5 “q”", undefined],
			["s", "日本語", undefined],
			["u", '{"name":"Zoë"}', undefined],
		]);
	});

	it("--json keeps invalid UTF-8 lossless wherever it occurs (bodyBase64)", async () => {
		const [r] = await runJson(block("bad", "/late-invalid"));
		expect(r.body).toBeUndefined();
		expect(Buffer.from(r.bodyBase64 ?? "", "base64").equals(BODIES["/late-invalid"][1])).toBe(true);
	});

	it("chaining sends the decoded text (UTF-8 on the wire), not mis-decoded bytes", async () => {
		echoed.length = 0;
		await runJson(`${block("lat", "/latin1")}\n\n\`\`\`http alias=send\nPOST ${base}/echo\nContent-Type: text/plain\n\n{{lat.response.body.*}} / {{sj.response.body.*}}\n\`\`\`\n\n${block("sj", "/sjis")}`);
		expect(echoed).toEqual(["café señor / 日本語"]);
	});
});
