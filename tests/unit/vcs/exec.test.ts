import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGitRunner, type ExecFilePort, type GitRunnerConfig } from "../../../src/vcs/exec";
import { git, GIT_ENV, nodeExecFile, write } from "../../support/git";

let dir: string;
let repo: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-exec-"));
	repo = join(dir, "vault");
	mkdirSync(repo);
	git(repo, "init", "--quiet", "--initial-branch=main");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const config = (extra: Partial<GitRunnerConfig> = {}): GitRunnerConfig => ({ execFile: nodeExecFile, cwd: repo, baseEnv: process.env, env: GIT_ENV, ...extra });

/** A program standing in for git: prints `stdout` and `stderr` and exits with `code`; touches `ran` when started. */
function standIn(stdout: string, stderr: string, code: number): string {
	writeFileSync(join(dir, "out"), stdout);
	writeFileSync(join(dir, "err"), stderr);
	const path = join(dir, "fake-git");
	writeFileSync(path, `#!/bin/sh\n: > '${join(dir, "ran")}'\n/bin/cat '${join(dir, "out")}'\n/bin/cat '${join(dir, "err")}' >&2\nexit ${code}\n`);
	chmodSync(path, 0o755);
	return path;
}

describe("what every git call carries", () => {
	it("prints paths verbatim and reads pathspecs literally", async () => {
		write(repo, "ünïcödé ✓.md", "u\n");
		write(repo, "*.md", "a note named star\n");
		write(repo, "other.md", "o\n");
		git(repo, "add", "--all");
		const runner = createGitRunner(config());
		expect(await runner.run(["ls-files", "ünïcödé ✓.md"])).toEqual({ ok: true, stdout: "ünïcödé ✓.md\n", stderr: "" });
		expect(await runner.run(["ls-files", "--", "*.md"])).toMatchObject({ ok: true, stdout: "*.md\n" });
	});

	it("hands arguments to git as they are: no shell reads them", async () => {
		const r = await createGitRunner(config()).run(["ls-files", "--", "$(touch pwned); `touch pwned2`"]);
		expect(r).toMatchObject({ ok: true, stdout: "" });
		expect(existsSync(join(repo, "pwned")) || existsSync(join(repo, "pwned2"))).toBe(false);
	});

	it("runs with no pager whatever the environment says", async () => {
		const r = await createGitRunner(config({ baseEnv: { ...process.env, GIT_PAGER: "less", PAGER: "more" } })).run(["var", "GIT_PAGER"]);
		expect(r).toMatchObject({ ok: true, stdout: "cat\n" });
	});

	it("never prompts, takes no optional lock and speaks English, whatever the base environment says", async () => {
		const program = join(dir, "env-git");
		writeFileSync(program, '#!/bin/sh\nprintf "%s|%s|%s|%s" "$GIT_TERMINAL_PROMPT" "$GIT_OPTIONAL_LOCKS" "$LC_ALL" "$LANGUAGE"\n');
		chmodSync(program, 0o755);
		const baseEnv = { ...process.env, GIT_TERMINAL_PROMPT: "1", GIT_OPTIONAL_LOCKS: "1", LC_ALL: "pt_BR.UTF-8", LANGUAGE: "pt_BR" };
		expect(await createGitRunner(config({ gitPath: program, baseEnv })).run(["status"])).toMatchObject({ ok: true, stdout: "0|0|C|C" });
	});

	it("lets the runner's environment override the base, and a call's override the runner's", async () => {
		const runner = createGitRunner(config({ baseEnv: { ...process.env, GIT_AUTHOR_NAME: "Base" }, env: { ...GIT_ENV, GIT_AUTHOR_NAME: "Runner" } }));
		const name = async (env?: Record<string, string>) => {
			const r = await runner.run(["var", "GIT_AUTHOR_IDENT"], { env });
			return r.ok ? r.stdout.split(" <")[0] : r.failure.detail;
		};
		expect(await name()).toBe("Runner");
		expect(await name({ GIT_AUTHOR_NAME: "Call" })).toBe("Call");
	});

	it("works in the runner's folder unless a call names another", async () => {
		const other = join(dir, "other");
		mkdirSync(other);
		git(other, "init", "--quiet");
		const runner = createGitRunner(config());
		expect(runner.cwd).toBe(repo);
		expect(await runner.run(["rev-parse", "--show-toplevel"])).toMatchObject({ stdout: `${repo}\n` });
		expect(await runner.run(["rev-parse", "--show-toplevel"], { cwd: other })).toMatchObject({ stdout: `${other}\n` });
	});
});

describe("how a call ends short of success", () => {
	it("classifies git's refusal with its exit code and words", async () => {
		const plain = join(dir, "plain");
		mkdirSync(plain);
		const r = await createGitRunner(config({ cwd: plain, env: { ...GIT_ENV, GIT_CEILING_DIRECTORIES: dir } })).run(["status"]);
		expect(r).toMatchObject({ ok: false, exitCode: 128, failure: { code: "not_repository", message: "This vault is not a git repository" } });
		expect(!r.ok && r.failure.detail).toMatch(/^fatal: not a git repository/);
	});

	it("reads a refusal git prints on stdout when stderr says nothing it knows", async () => {
		git(repo, "commit", "--quiet", "--allow-empty", "-m", "First");
		const r = await createGitRunner(config()).run(["commit", "-m", "again"]);
		expect(r).toMatchObject({ ok: false, exitCode: 1, failure: { code: "nothing_to_commit" } });
	});

	it.each([
		["stderr's words first", "nothing to commit\n", "fatal: not a git repository\n", "not_repository", "fatal: not a git repository"],
		["stdout's when only they are known", "nothing to commit\n", "error: something odd\n", "nothing_to_commit", "nothing to commit"],
		["stderr's when neither is known", "odd output\n", "error: something odd\n", "git_failed", "error: something odd"],
	])("takes %s", async (_, stdout, stderr, code, detail) => {
		const r = await createGitRunner(config({ gitPath: standIn(stdout, stderr, 1) })).run(["anything"]);
		expect(r).toEqual({ ok: false, exitCode: 1, failure: expect.objectContaining({ code, detail }) as unknown, stdout, stderr });
	});

	it("says git is missing when the program is not there", async () => {
		const r = await createGitRunner(config({ gitPath: join(dir, "no-such-git") })).run(["status"]);
		expect(r).toMatchObject({ ok: false, exitCode: null, failure: { code: "git_missing" } });
	});

	it("starts nothing when the call is cancelled before it begins", async () => {
		const ac = new AbortController();
		ac.abort();
		const runner = createGitRunner(config({ gitPath: standIn("", "", 0) }));
		expect(await runner.run(["status"], { signal: ac.signal })).toEqual({ ok: false, exitCode: null, failure: expect.objectContaining({ code: "cancelled" }) as unknown, stdout: "", stderr: "" });
		expect(existsSync(join(dir, "ran"))).toBe(false);
	});

	it("stops a running git when cancelled, counting it in flight until then", async () => {
		const runner = createGitRunner(config());
		const ac = new AbortController();
		const pending = runner.run(["cat-file", "--batch"], { signal: ac.signal }); // reads its stdin until stopped
		expect(runner.inFlight()).toBe(1);
		ac.abort();
		expect(await pending).toMatchObject({ ok: false, failure: { code: "cancelled", detail: "" } });
		expect(runner.inFlight()).toBe(0);
	});

	it("stops a git that takes longer than the runner's timeout, saying how long it waited", async () => {
		const runner = createGitRunner(config({ timeoutMs: 600 }));
		expect(await runner.run(["cat-file", "--batch"])).toMatchObject({ ok: false, exitCode: null, failure: { code: "timeout", detail: "no answer after 1 s" } });
		expect(runner.inFlight()).toBe(0);
	});

	it("says so when git prints more than the runner reads", async () => {
		git(repo, "commit", "--quiet", "--allow-empty", "-m", "A subject longer than the buffer");
		// Node's own overflow, with a buffer small enough to reach: the runner's is 256 MiB.
		const small: ExecFilePort = (file, args, options, callback) => nodeExecFile(file, args, { ...options, maxBuffer: 8 }, callback);
		const r = await createGitRunner(config({ execFile: small })).run(["log", "--format=%s"]);
		expect(r).toMatchObject({ ok: false, failure: { code: "git_failed", detail: "git printed more than the panel reads" } });
	});

	it("turns arguments Node refuses (a NUL in a path) into a failure, never an exception", async () => {
		const runner = createGitRunner(config());
		const r = await runner.run(["add", "--", "bad\0name.md"]);
		expect(r).toMatchObject({ ok: false, exitCode: null, failure: { code: "git_failed" } });
		expect(!r.ok && r.failure.detail).toMatch(/null bytes/);
		expect(runner.inFlight()).toBe(0);
	});
});
