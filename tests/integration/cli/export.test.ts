/**
 * `runnable-blocks export` sends what `run` sends (issue 23, point 4): the real CLI prepares a
 * block through the engine, file variables, environment and chained values alike, and the printed
 * snippet, run by the real curl, puts the request `run` sent on the wire.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunResultJson } from "../../../src/cli/result-json";
import { startTestServer, type RecordedRequest, type TestServer } from "../../support/servers";
import { CLI, expectBuiltCli } from "../../support/cli-process";

jest.setTimeout(60_000);

let server: TestServer;
let vault: string;

interface Ran {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs a program in a child process (asynchronous: the test server lives in this process). */
function spawn(file: string, args: string[]): Promise<Ran> {
	return new Promise((done) => {
		execFile(file, args, { cwd: vault, env: { ...process.env, NO_COLOR: "" }, timeout: 30_000 }, (error, stdout, stderr) => {
			done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
		});
	});
}
const cli = (...args: string[]) => spawn(process.execPath, [CLI, ...args]);

const fence = (info: string, ...lines: string[]) => ["```http" + (info ? ` ${info}` : ""), ...lines, "```"].join("\n");

function note(name: string, ...blocks: string[]): string {
	const path = join(vault, name);
	writeFileSync(path, `# ${name}\n\n${blocks.join("\n\n")}\n`);
	return path;
}

/** What a request was, without the headers a tool adds on its own (docs/export.md, "Proof"). */
function sent(r: RecordedRequest) {
	const own = new Set(["user-agent", "accept", "accept-encoding", "host", "connection", "content-length"]);
	return { method: r.method, url: r.url, headers: r.headers.filter(([n]) => !own.has(n.toLowerCase())), body: r.body.toString() };
}

beforeAll(async () => {
	expectBuiltCli();
	server = await startTestServer();
	vault = mkdtempSync(join(tmpdir(), "rb-cli-export-"));
	const dir = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "user.toml"), `[general]\nenvironment = "dev"\ntimeout = 5000\n\n[environments.dev]\nbase = "${server.url}"\nwho = "env"\nregion = "eu"\n`);
});

afterAll(async () => {
	await server.close();
	rmSync(vault, { recursive: true, force: true });
});

// The note: a variables fence defines the host; the block reads it, the environment and a chained token.
const chained = () =>
	note(
		"chained.md",
		fence("", `@host = ${new URL(server.url).host}`, "@who = file"),
		fence("alias=login", "GET {{base}}/json"),
		fence("alias=me", "@page = 2", "POST http://{{host}}/echo?who={{who}}&page={{page}}&region={{region}}", "Authorization: Bearer {{login.response.body.$.token}}", "Content-Type: application/json", "", '{"who": "{{who}}"}'),
	);

describe("runnable-blocks export prepares a block as run does", () => {
	it("file variables, the environment and a chained value: the curl it prints sends the request run sent", async () => {
		const path = chained();
		const run = await cli("run", path, "--alias", "me", "--json");
		expect(run.code).toBe(0);
		const ranMe = sent(server.requests[server.requests.length - 1]);
		expect(ranMe).toMatchObject({ method: "POST", url: "/echo?who=file&page=2&region=eu", body: '{"who": "file"}' });
		expect(ranMe.headers).toContainEqual(["Authorization", "Bearer tok-123"]);

		const exported = await cli("export", path, "--alias", "me", "--format", "curl");
		expect(exported.stderr).toBe("running login first for the values me references\n");
		expect(exported.code).toBe(0);
		const curl = await spawn("/bin/sh", ["-c", exported.stdout]);
		expect(curl.code).toBe(0);
		expect(sent(server.requests[server.requests.length - 1])).toEqual(ranMe);
	});

	it("a .http export holds the values, not the variables fence", async () => {
		const exported = await cli("export", chained(), "--alias", "me", "--format", "http");
		expect(exported.code).toBe(0);
		expect(exported.stdout).toBe(`### me\n# @name me\nPOST ${server.url}/echo?who=file&page=2&region=eu\nAuthorization: Bearer tok-123\nContent-Type: application/json\n\n{"who": "file"}\n`);
	});

	it("a variable the block cannot see (defined below it) stops the export with the message the run gives", async () => {
		const path = note("below.md", fence("alias=early", "GET {{base}}/json?late={{late}}"), fence("", "@late = 1"));
		const [run] = JSON.parse((await cli("run", path, "--json")).stdout) as RunResultJson[];
		const exported = await cli("export", path, "--alias", "early", "--format", "curl");
		expect(exported.code).toBe(2);
		expect(run.error?.message).toMatch(/^Unresolved reference \{\{late\}\}/);
		expect(exported.stderr).toBe(`runnable-blocks: cannot export early: ${run.error?.message}\n`);
	});

	it("runs nothing when the block reads no other block", async () => {
		const path = note("plain.md", fence("", "@q = dune"), fence("alias=search", "GET {{base}}/json?q={{q}}&who={{who}}"));
		const before = server.requests.length;
		const exported = await cli("export", path, "--alias", "search", "--format", "curl");
		expect(exported).toEqual({ code: 0, stdout: `curl '${server.url}/json?q=dune&who=env' --location\n`, stderr: "" });
		expect(server.requests.length).toBe(before);
	});
});
