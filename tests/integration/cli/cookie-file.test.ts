/**
 * `[general] persist_cookies = true` through the real CLI: the jar of one run serves the next,
 * in the plugin's cookies.json (beside history.sqlite); off, no file is read or written; a file
 * that cannot be read is left exactly as it was.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CookieJars } from "../../../src/runner/cookie-jar";
import { startTestServer, type TestServer } from "../../support/servers";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

jest.setTimeout(60_000);

let server: TestServer;
let vault: string;
let pluginDir: string;
let cookieFile: string;

function cli(args: string[]): Promise<CliRun> {
	return runCli(args, { cwd: vault, env: { NO_COLOR: "1" } });
}

/** The Cookie header the server saw on the `me` run's request. */
async function cookieSentByMe(): Promise<string | undefined> {
	const before = server.requests.length;
	const r = await cli(["run", "api.md", "--alias", "me"]);
	expect(r.code).toBe(0);
	const sent = server.requests.slice(before).find((q) => q.url === "/echo");
	return sent?.headers.find(([n]) => n.toLowerCase() === "cookie")?.[1];
}

const settings = (persist: boolean) => writeFileSync(join(pluginDir, "user.toml"), `[general]\npersist_cookies = ${persist}\n`);

beforeAll(async () => {
	expectBuiltCli();
	server = await startTestServer();
	vault = mkdtempSync(join(tmpdir(), "rb-cli-cookies-"));
	pluginDir = join(vault, ".obsidian", "plugins", "runnable-blocks");
	cookieFile = join(pluginDir, "cookies.json");
	mkdirSync(pluginDir, { recursive: true });
	writeFileSync(join(vault, "api.md"), ["```http alias=login", `GET ${server.url}/set-cookie`, "```", "", "```http alias=me", `GET ${server.url}/echo`, "```", ""].join("\n"));
});

afterAll(async () => {
	await server?.close();
	rmSync(vault, { recursive: true, force: true });
});

beforeEach(() => rmSync(cookieFile, { force: true }));

describe("the CLI and cookies.json", () => {
	it("off (the default): a run's cookies last for the run only, no file is written", async () => {
		settings(false);
		await expect(cli(["run", "api.md", "--alias", "login"])).resolves.toMatchObject({ code: 0 });
		expect(existsSync(cookieFile)).toBe(false);
		await expect(cookieSentByMe()).resolves.toBeUndefined();
	});

	it("on: the cookies a run stored are sent by the next run, and the file is the plugin's format", async () => {
		settings(true);
		await expect(cli(["run", "api.md", "--alias", "login"])).resolves.toMatchObject({ code: 0, stderr: "" });
		// The plugin reads the file with the same jars (the Secure cookie was refused over http://).
		const jars = new CookieJars();
		expect(jars.restore(readFileSync(cookieFile, "utf8"))).toBeNull();
		expect(jars.list("").map((c) => c.name)).toEqual(["session"]);
		await expect(cookieSentByMe()).resolves.toBe("session=abc");
	});

	it("a cookies.json that cannot be read is said on stderr and left exactly as it was", async () => {
		settings(true);
		writeFileSync(cookieFile, "{ not json");
		const r = await cli(["run", "api.md", "--alias", "login"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toMatch(/cookies\.json: cookies not read \(.+\); this run starts with an empty jar and leaves the file as it is\n/);
		expect(readFileSync(cookieFile, "utf8")).toBe("{ not json");
	});
});
