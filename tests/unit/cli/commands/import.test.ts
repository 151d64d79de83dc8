import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importCommand } from "../../../../src/cli/commands/import";
import { EXIT, UsageError } from "../../../../src/cli/usage";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-import-"));
	writeFileSync(join(dir, "api.http"), "@base = http://127.0.0.1\n\n### list\nGET {{base}}/books\n\n###\nG@T /x\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(opts: { file: string; output?: string; config?: string }) {
	const out: string[] = [];
	const err: string[] = [];
	const code = importCommand(opts, (s) => out.push(s), (s) => err.push(s));
	return { code, out: out.join(""), err: err.join("") };
}

describe("runnable-blocks import", () => {
	it("prints the note, one fence per request, and lists what will not run", () => {
		const r = run({ file: join(dir, "api.http") });
		expect(r.code).toBe(EXIT.ok);
		expect(r.out).toContain("```http\n@base = http://127.0.0.1\n```");
		expect(r.out).toContain("GET {{base}}/books");
		expect(r.err).toMatch(/^note: line \d+: .*G@T/);
	});

	it("writes the note to a new file with -o, never over an existing one", () => {
		const output = join(dir, "api.md");
		const r = run({ file: join(dir, "api.http"), output });
		expect(r.err.split("\n")[0]).toBe(`wrote ${output}`);
		expect(readFileSync(output, "utf8")).toContain("GET {{base}}/books");
		expect(() => run({ file: join(dir, "api.http"), output })).toThrow(new UsageError(`${output} exists: choose a new file`));
	});

	it("says why a file cannot be read", () => {
		expect(() => run({ file: join(dir, "none.http") })).toThrow(new UsageError(`${join(dir, "none.http")}: cannot read it (ENOENT)`));
	});

	describe("JetBrains' env files beside the .http file", () => {
		const FIXTURE = join(__dirname, "../../../fixtures/jetbrains-env");
		beforeEach(() => {
			for (const f of ["http-client.env.json", "http-client.private.env.json"]) copyFileSync(join(FIXTURE, f), join(dir, f));
		});

		it("adds their auth configurations to the user.toml of --config, names the secrets to set and notes what does not map", () => {
			const config = join(dir, "user.toml");
			writeFileSync(config, '[general]\nenvironment = "dev"\n');
			const r = run({ file: join(dir, "api.http"), config });
			expect(r.code).toBe(EXIT.ok);
			const toml = readFileSync(config, "utf8");
			expect(toml).toContain('[environments.dev.auth.service]\ntype = "oauth2"\ngrant = "client_credentials"');
			expect(toml).not.toContain("dev-ci-secret-value");
			expect(r.err).toContain(`added [environments.test.auth.robot] to ${config}`);
			expect(r.err).toContain("set these secrets (the CLI reads RUNNABLE_BLOCKS_SECRET_<ID>): dev-service-client-secret, test-robot-client-secret, test-robot-password");
			expect(r.err).toContain('auth dev.legacy "Grant Type": "Implicit" is not supported');
		});

		it("without --config writes nothing and says how to add them", () => {
			const r = run({ file: join(dir, "api.http") });
			expect(r.err).toContain("the env files hold [environments.dev.auth.service], [environments.dev.auth.browser], [environments.dev.auth.tv], [environments.test.auth.robot]: pass --config user.toml to add them");
		});
	});
});
