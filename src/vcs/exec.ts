import { failure, classifyGitError, type GitFailure } from "./failures";

/**
 * What the git runner needs from `child_process.execFile` (docs/vcs.md): a program, its
 * arguments as an array (no shell ever parses them), and Node's options. The plugin hands in
 * `require("child_process").execFile` on desktop; tests hand in the same.
 */
export type ExecFilePort = (
	file: string,
	args: readonly string[],
	options: ExecOptions,
	callback: (error: ExecError | null, stdout: string, stderr: string) => void,
) => unknown;

export interface ExecOptions {
	cwd: string;
	env: Record<string, string | undefined>;
	/** Milliseconds; Node kills the process after it (SIGTERM). */
	timeout: number;
	maxBuffer: number;
	encoding: "utf8";
	signal?: AbortSignal;
	windowsHide: boolean;
}

/** Node's execFile error, as far as we read it. */
export interface ExecError {
	/** Exit code, or a system error name ("ENOENT" when git is not installed). */
	code?: number | string | null;
	killed?: boolean;
	signal?: string | null;
	name?: string;
	message: string;
}

export type GitResult = { ok: true; stdout: string; stderr: string } | { ok: false; failure: GitFailure; exitCode: number | null; stdout: string; stderr: string };

export interface GitCallOptions {
	signal?: AbortSignal;
	/** Milliseconds; network commands get longer than local ones. */
	timeoutMs?: number;
	/** Runs in this directory instead of the runner's. */
	cwd?: string;
	/** Extra environment entries (tests set the author identity this way). */
	env?: Record<string, string>;
}

export interface GitRunner {
	readonly cwd: string;
	run(args: readonly string[], opts?: GitCallOptions): Promise<GitResult>;
	/** How many git processes this runner has started and not seen end (a lock may be ours). */
	inFlight(): number;
}

export interface GitRunnerConfig {
	execFile: ExecFilePort;
	cwd: string;
	/** The git program; "git" finds it on PATH. */
	gitPath?: string;
	/** The environment git runs in (the plugin passes process.env). */
	baseEnv?: Record<string, string | undefined>;
	/** Extra environment entries for every call. */
	env?: Record<string, string>;
	/** Default per-call timeout in milliseconds. */
	timeoutMs?: number;
	/**
	 * Gives the UI thread a turn between slices of a long parse (a 10,000-file status); the panel
	 * passes one, headless callers need none.
	 */
	pause?: () => Promise<void>;
}

export const LOCAL_TIMEOUT_MS = 30_000;
export const NETWORK_TIMEOUT_MS = 120_000;
/** A 10,000-file vault's status is about a megabyte; room for far larger. */
const MAX_BUFFER = 256 * 1024 * 1024;

/**
 * Options every call carries: paths printed verbatim (no C-quoting of unicode), no pager, no
 * colour, and pathspecs read literally so a note named `*.md` or `:x` means itself.
 */
const FIXED_ARGS = ["-c", "core.quotepath=false", "-c", "color.ui=false", "--no-pager", "--literal-pathspecs"];

/**
 * Never a prompt (the panel has no terminal to answer it), English messages (failures are
 * classified by their text) and no optional locks: the panel's background `status` must not take
 * `index.lock` away from the user's own git.
 */
const FIXED_ENV: Record<string, string> = { GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C", LANGUAGE: "C", GIT_PAGER: "cat" };

/** A git runner over an execFile port. `run` never rejects: every end is a GitResult. */
export function createGitRunner(config: GitRunnerConfig): GitRunner {
	let running = 0;
	const git = config.gitPath ?? "git";
	return {
		cwd: config.cwd,
		inFlight: () => running,
		run(args, opts = {}) {
			if (opts.signal?.aborted) return Promise.resolve({ ok: false, failure: failure("cancelled", ""), exitCode: null, stdout: "", stderr: "" });
			const options: ExecOptions = {
				cwd: opts.cwd ?? config.cwd,
				env: { ...(config.baseEnv ?? {}), ...FIXED_ENV, ...(config.env ?? {}), ...(opts.env ?? {}) },
				timeout: opts.timeoutMs ?? config.timeoutMs ?? LOCAL_TIMEOUT_MS,
				maxBuffer: MAX_BUFFER,
				encoding: "utf8",
				signal: opts.signal,
				windowsHide: true,
			};
			running++;
			return new Promise<GitResult>((resolve) => {
				const done = (r: GitResult) => {
					running--;
					resolve(r);
				};
				try {
					config.execFile(git, [...FIXED_ARGS, ...args], options, (error, stdout, stderr) => {
						stdout = String(stdout ?? "");
						stderr = String(stderr ?? "");
						if (!error) return done({ ok: true, stdout, stderr });
						const exitCode = typeof error.code === "number" ? error.code : null;
						done({ ok: false, failure: errorFailure(error, stderr, stdout, options.timeout, opts.signal), exitCode, stdout, stderr });
					});
				} catch (e) {
					// execFile throws synchronously only for invalid arguments (a NUL in a path).
					done({ ok: false, failure: failure("git_failed", e instanceof Error ? e.message : String(e)), exitCode: null, stdout: "", stderr: "" });
				}
			});
		},
	};
}

function errorFailure(error: ExecError, stderr: string, stdout: string, timeoutMs: number, signal?: AbortSignal): GitFailure {
	if (error.code === "ENOENT") return failure("git_missing", error.message);
	if (signal?.aborted || error.name === "AbortError" || error.code === "ABORT_ERR") return failure("cancelled", "");
	if (error.killed && typeof error.code !== "number") return failure("timeout", `no answer after ${Math.round(timeoutMs / 1000)} s`);
	if (error.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") return failure("git_failed", "git printed more than the panel reads");
	// Some refusals go to stdout ("nothing to commit"): stderr first, then stdout.
	const byStderr = classifyGitError(stderr || error.message);
	if (byStderr.code !== "git_failed" || stdout.trim() === "") return byStderr;
	const byStdout = classifyGitError(stdout);
	return byStdout.code === "git_failed" ? byStderr : byStdout;
}
