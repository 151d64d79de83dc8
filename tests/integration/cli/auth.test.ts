/**
 * `runnable-blocks run` gets tokens as the plugin does: a client-credentials grant needs no
 * person (CI), secrets come from RUNNABLE_BLOCKS_SECRET_<ID>, and no token or secret lands in
 * any file the run writes (history included) or in its output.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunResultJson } from "../../../src/cli/result-json";
import { startProvider, type TestProvider } from "../../support/oidc";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

jest.setTimeout(60_000);

let provider: TestProvider;
let vault: string;
beforeAll(async () => {
	expectBuiltCli();
	provider = await startProvider();
	vault = mkdtempSync(join(tmpdir(), "rb-cli-auth-"));
	const dir = join(vault, ".obsidian", "plugins", "runnable-blocks");
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "user.toml"), `[general]\nenvironment = "ci"\n\n[environments.ci]\napi = "${provider.resource}"\n\n[environments.ci.auth.kc]\ntype = "oauth2"\ngrant = "client_credentials"\nissuer = "${provider.issuer}"\nclient_id = "${provider.client.id}"\nclient_secret = { secret = "kc-secret" }\n`);
	writeFileSync(join(vault, "api.md"), '# API\n\n```http alias=me\nGET {{api}}/api\nAuthorization: Bearer {{$auth.token("kc")}}\n```\n\n```http alias=again\nGET {{api}}/api?again\nAuthorization: Bearer {{$auth.token("kc")}}\n```\n');
});
afterAll(async () => {
	await provider.stop();
	rmSync(vault, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>): Promise<CliRun> {
	return runCli(args, { env });
}

const filesUnder = (root: string): string[] => readdirSync(root).flatMap((name) => (statSync(join(root, name)).isDirectory() ? filesUnder(join(root, name)) : [join(root, name)]));

describe("runnable-blocks run with an auth configuration", () => {
	it("gets a client-credentials token with no person, sends it masked, and writes no secret", async () => {
		const { code, stdout, stderr } = await cli(["run", join(vault, "api.md"), "--json"], { RUNNABLE_BLOCKS_SECRET_KC_SECRET: provider.client.secret });
		expect(stderr).toBe("");
		expect(code).toBe(0);
		const results = JSON.parse(stdout) as RunResultJson[];
		expect(results.map((r) => [r.alias, r.state, r.status])).toEqual([
			["me", "done", 200],
			["again", "done", 200],
		]);
		expect(stdout).not.toContain(provider.client.secret);
		expect(stdout).not.toMatch(/Bearer [A-Za-z0-9_-]{20,}/);
		const files = filesUnder(vault);
		expect(files.some((f) => f.endsWith("history.sqlite"))).toBe(true);
		for (const f of files) expect(readFileSync(f).toString("latin1")).not.toContain(provider.client.secret);
	});

	it("says which configuration and step failed, in one line, when the secret is wrong", async () => {
		const { code, stdout } = await cli(["run", join(vault, "api.md"), "--alias", "me", "--json"], { RUNNABLE_BLOCKS_SECRET_KC_SECRET: "wrong" });
		expect(code).toBe(1);
		const [result] = JSON.parse(stdout) as RunResultJson[];
		expect(result.error?.code).toBe("auth_failed");
		expect(result.error?.message).toMatch(/^Auth "kc", token request: the provider refused the client \(invalid_client[^\n]*$/);
	});
});
