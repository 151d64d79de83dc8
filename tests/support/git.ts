/**
 * Real git worlds for the version-control tests: a bare remote, the vault cloned from it, and a
 * second clone that commits concurrently. The machine has no git identity, so every call carries
 * one through the environment, with global and system config shut out.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createNodeVcsFs, GitRepository, type ExecFilePort, type GitRunnerConfig } from "../../src/vcs";

export const GIT_ENV: Record<string, string> = {
	GIT_AUTHOR_NAME: "Vault Tester",
	GIT_AUTHOR_EMAIL: "vault@example.test",
	GIT_COMMITTER_NAME: "Vault Tester",
	GIT_COMMITTER_EMAIL: "vault@example.test",
	GIT_CONFIG_NOSYSTEM: "1",
	GIT_CONFIG_GLOBAL: "/dev/null",
	GIT_TERMINAL_PROMPT: "0",
};

export const nodeExecFile = execFile as unknown as ExecFilePort;
export const vcsFs = createNodeVcsFs(fsp);

/** Runs git synchronously as the test's other actor (the user's terminal, a second device). */
export function git(cwd: string, ...args: string[]): string {
	return execFileSync("git", args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Like `git` but returns the exit code instead of throwing (for fsck and expected refusals). */
export function gitStatus(cwd: string, ...args: string[]): { code: number; out: string } {
	try {
		return { code: 0, out: git(cwd, ...args) };
	} catch (e) {
		const err = e as { status?: number; stdout?: string; stderr?: string };
		return { code: err.status ?? -1, out: `${err.stdout ?? ""}${err.stderr ?? ""}` };
	}
}

export function write(root: string, path: string, text: string): void {
	mkdirSync(dirname(join(root, path)), { recursive: true });
	writeFileSync(join(root, path), text);
}

export function read(root: string, path: string): string {
	return readFileSync(join(root, path), "utf8");
}

/**
 * A fresh repository of `folders × perFolder` untracked notes under bulk/ (the version-control
 * panel at scale), on an empty first commit, with no background gc or maintenance to outlive it.
 */
export function bulkVault(dir: string, folders = 100, perFolder = 100): void {
	git(dir, "init", "--quiet", "--initial-branch=main");
	git(dir, "config", "user.name", "Panel Tester");
	git(dir, "config", "user.email", "panel@example.test");
	// No background gc after a commit of the bulk: it would still be writing .git when the folder is removed.
	git(dir, "config", "gc.auto", "0");
	git(dir, "config", "maintenance.auto", "false");
	git(dir, "commit", "--quiet", "--allow-empty", "-m", "Empty vault");
	for (let d = 0; d < folders; d++) {
		mkdirSync(join(dir, "bulk", `folder ${d}`), { recursive: true });
		for (let f = 0; f < perFolder; f++) writeFileSync(join(dir, "bulk", `folder ${d}`, `note ${f}.md`), `${d}/${f}\n`);
	}
}

export interface GitWorld {
	dir: string;
	remote: string;
	vault: string;
	other: string;
	config(cwd?: string): GitRunnerConfig;
	open(cwd?: string): Promise<GitRepository>;
	/** The second clone commits a file and pushes. */
	otherCommits(path: string, text: string, message?: string): void;
	cleanup(): void;
}

/** The plugin's runner configuration for `cwd`, with the test identity. */
export function runnerConfig(cwd: string): GitRunnerConfig {
	return { execFile: nodeExecFile, cwd, baseEnv: process.env, env: GIT_ENV };
}

/** The repository `cwd` belongs to; throws when there is none (a broken fixture, not a case). */
export async function openRepository(cwd: string): Promise<GitRepository> {
	const r = await GitRepository.open(runnerConfig(cwd), vcsFs);
	if (!r.ok) throw new Error(`cannot open ${cwd}: ${r.failure.message} ${r.failure.detail}`);
	return r.value;
}

/** A remote with one commit on main, the vault tracking it, and a second clone. */
export function createGitWorld(): GitWorld {
	const dir = mkdtempSync(join(tmpdir(), "rb-vcs-"));
	const remote = join(dir, "remote.git");
	const vault = join(dir, "vault");
	const other = join(dir, "other");
	git(dir, "init", "--quiet", "--bare", "--initial-branch=main", remote);
	git(dir, "clone", "--quiet", remote, vault);
	git(vault, "symbolic-ref", "HEAD", "refs/heads/main");
	write(vault, "Welcome.md", "# Welcome\n");
	git(vault, "add", "--all");
	git(vault, "commit", "--quiet", "-m", "First note");
	git(vault, "push", "--quiet", "-u", "origin", "main");
	git(dir, "clone", "--quiet", remote, other);
	return {
		dir,
		remote,
		vault,
		other,
		config: (cwd = vault) => runnerConfig(cwd),
		open: (cwd = vault) => openRepository(cwd),
		otherCommits(path, text, message = `Other edits ${path}`) {
			git(other, "pull", "--quiet", "--ff-only");
			write(other, path, text);
			git(other, "add", "--all");
			git(other, "commit", "--quiet", "-m", message);
			git(other, "push", "--quiet");
		},
		cleanup: () => rmSync(dir, { recursive: true, force: true }),
	};
}

/** Every file's text under a directory (outside .git), to prove a work tree was not touched. */
export function treeContents(root: string): Record<string, string> {
	const out: Record<string, string> = {};
	const files = git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0").filter(Boolean);
	for (const f of files) {
		try {
			out[f] = read(root, f);
		} catch {
			out[f] = "<deleted>";
		}
	}
	return out;
}

/** Every file outside .git by its SHA-256 (untracked and ignored ones too), so "byte for byte" is checked file by file. */
export function fileHashes(root: string, dir = ""): Record<string, string> {
	const out: Record<string, string> = {};
	for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
		const rel = dir ? `${dir}/${e.name}` : e.name;
		if (rel === ".git") continue;
		if (e.isDirectory()) Object.assign(out, fileHashes(root, rel));
		else out[rel] = createHash("sha256").update(readFileSync(join(root, rel))).digest("hex");
	}
	return out;
}

/**
 * A vault (`dir`, a fresh folder) whose branch and upstream diverged over one note, Conflict.md:
 * each of its `lines` lines changed on both sides (the remote in a clone under `elsewhere`), fetched
 * and ready for "Merge the remote" to stop at a conflict of `lines` lines. The repository carries
 * its own identity (the plugin's git runs with the process's environment) and ignores .obsidian/.
 */
export function conflictingVault(dir: string, elsewhere: string, lines: number): void {
	const remote = join(elsewhere, "remote.git");
	const other = join(elsewhere, "other");
	const note = (word: string) => Array.from({ length: lines }, (_, i) => `${word} ${i + 1}\n`).join("");
	git(elsewhere, "init", "--quiet", "--bare", "--initial-branch=main", remote);
	git(dir, "init", "--quiet", "--initial-branch=main");
	git(dir, "config", "user.name", "Conflict Tester");
	git(dir, "config", "user.email", "conflict@example.test");
	writeFileSync(join(dir, ".git", "info", "exclude"), ".obsidian/\n");
	write(dir, "Conflict.md", note("base"));
	git(dir, "add", "--all");
	git(dir, "commit", "--quiet", "-m", "Base");
	git(dir, "remote", "add", "origin", remote);
	git(dir, "push", "--quiet", "-u", "origin", "main");
	git(elsewhere, "clone", "--quiet", remote, other);
	write(other, "Conflict.md", note("remote"));
	git(other, "commit", "--quiet", "-am", "Remote lines");
	git(other, "push", "--quiet");
	write(dir, "Conflict.md", note("local"));
	git(dir, "commit", "--quiet", "-am", "Local lines");
	git(dir, "fetch", "--quiet");
}

/** A vault repository with one commit on main and no remote: the world of specs that sync nothing, at a third of the git calls. */
export type LocalVault = Pick<GitWorld, "dir" | "vault" | "config" | "open" | "cleanup">;

export function createLocalVault(): LocalVault {
	const dir = mkdtempSync(join(tmpdir(), "rb-vcs-"));
	const vault = join(dir, "vault");
	mkdirSync(vault);
	git(vault, "init", "--quiet", "--initial-branch=main");
	write(vault, "Welcome.md", "# Welcome\n");
	git(vault, "add", "--all");
	git(vault, "commit", "--quiet", "-m", "First note");
	return {
		dir,
		vault,
		config: (cwd = vault) => runnerConfig(cwd),
		open: (cwd = vault) => openRepository(cwd),
		cleanup: () => rmSync(dir, { recursive: true, force: true }),
	};
}
