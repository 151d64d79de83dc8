import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExecFilePort } from "../../../src/vcs/exec";
import { createProcessProbe, isInside, type ProbeHost } from "../../../src/vcs/process-probe";
import { git, GIT_ENV, nodeExecFile } from "../../support/git";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "rb-probe-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A host whose file system is the real one with `/proc` answered from `proc` (a folder the test fills), and whose programs are scripts in `bin`. */
function hostAt(platform: string, proc = join(dir, "proc"), bin = join(dir, "bin")): ProbeHost {
	const at = (path: string) => path.replace(/^\/proc/, proc);
	const execFile: ExecFilePort = (file, args, options, callback) => nodeExecFile(join(bin, file), args, options, callback);
	return { platform, readdir: (p) => fsp.readdir(at(p)), readlink: (p) => fsp.readlink(at(p)), readFile: (p) => fsp.readFile(at(p), "utf8"), execFile };
}

/** A process in the fake /proc: its program name and, unless it has none to show, its working directory. */
function processIn(pid: string, comm: string, cwd?: string): void {
	mkdirSync(join(dir, "proc", pid), { recursive: true });
	writeFileSync(join(dir, "proc", pid, "comm"), `${comm}\n`);
	if (cwd) symlinkSync(cwd, join(dir, "proc", pid, "cwd"));
}

/** A stand-in for a system program: prints `stdout`, exits with `code`, and leaves its arguments in `<name>.args`. */
function program(name: string, stdout: string, code: number): void {
	mkdirSync(join(dir, "bin"), { recursive: true });
	writeFileSync(join(dir, "bin", `${name}.out`), stdout);
	const script = `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${join(dir, "bin", `${name}.args`)}'\n/bin/cat '${join(dir, "bin", `${name}.out`)}'\nexit ${code}\n`;
	writeFileSync(join(dir, "bin", name), script);
	chmodSync(join(dir, "bin", name), 0o755);
}
const argsOf = (name: string) => readFileSync(join(dir, "bin", `${name}.args`), "utf8").split("\n").filter(Boolean);

describe("on Linux (/proc)", () => {
	it("lists the working directories of git and its helper programs, nothing else", async () => {
		processIn("101", "git", "/vaults/notes");
		processIn("102", "git-remote-https", "/vaults/notes/.git");
		processIn("103", "node", "/vaults/notes");
		processIn("104", "gitk", "/vaults/other");
		mkdirSync(join(dir, "proc", "self"));
		writeFileSync(join(dir, "proc", "uptime"), "1 2\n");
		const dirs = await createProcessProbe(hostAt("linux"))();
		expect(dirs !== "unknown" && [...dirs].sort()).toEqual(["/vaults/notes", "/vaults/notes/.git"]);
	});

	it("skips a process that ended meanwhile or whose directory it may not read", async () => {
		processIn("201", "git");
		mkdirSync(join(dir, "proc", "202"));
		processIn("203", "git", "/vaults/notes");
		expect(await createProcessProbe(hostAt("linux"))()).toEqual(["/vaults/notes"]);
	});

	it("cannot tell when /proc cannot be read", async () => {
		expect(await createProcessProbe(hostAt("linux", join(dir, "no-proc")))()).toBe("unknown");
	});

	(process.platform === "linux" ? it : it.skip)("finds a real git process by the folder it works in", async () => {
		git(dir, "init", "--quiet");
		// Waits on its stdin until killed: a git process at work in `dir`.
		const busy = spawn("git", ["cat-file", "--batch"], { cwd: dir, env: { ...process.env, ...GIT_ENV } });
		try {
			await new Promise((resolve) => busy.once("spawn", resolve));
			const probe = createProcessProbe({ ...hostAt("linux", "/proc"), readdir: (p) => fsp.readdir(p) });
			// Between fork and exec the child is still named "node": look until git is running.
			let dirs: string[] | "unknown" = [];
			while (!(dirs !== "unknown" && dirs.includes(dir)) && busy.exitCode === null) dirs = await probe();
			expect(dirs).toContain(dir);
		} finally {
			busy.kill();
			await new Promise((resolve) => busy.once("exit", resolve));
		}
	});
});

describe("on macOS (lsof)", () => {
	it("asks lsof for the cwd of processes named git* and reads its name lines", async () => {
		program("lsof", "p4242\nfcwd\nn/Users/ana/vault\np4343\nfcwd\nn/Users/ana/other vault\n", 0);
		expect(await createProcessProbe(hostAt("darwin"))()).toEqual(["/Users/ana/vault", "/Users/ana/other vault"]);
		expect(argsOf("lsof")).toEqual(["-a", "-c", "git", "-d", "cwd", "-Fn"]);
	});

	it("reads lsof's exit 1 with no output as no git process", async () => {
		program("lsof", "", 1);
		expect(await createProcessProbe(hostAt("darwin"))()).toEqual([]);
	});

	it("cannot tell when lsof fails otherwise or is missing", async () => {
		program("lsof", "", 2);
		expect(await createProcessProbe(hostAt("darwin"))()).toBe("unknown");
		expect(await createProcessProbe(hostAt("darwin", undefined, join(dir, "no-bin")))()).toBe("unknown");
	});
});

describe("on Windows (tasklist)", () => {
	it("finds no holder when no git.exe runs", async () => {
		program("tasklist", "INFO: No tasks are running which match the specified criteria.\r\n", 0);
		expect(await createProcessProbe(hostAt("win32"))()).toEqual([]);
		expect(argsOf("tasklist")).toEqual(["/FI", "IMAGENAME eq git.exe", "/NH", "/FO", "CSV"]);
	});

	it("cannot tell where a running git.exe works, so cannot tell at all", async () => {
		program("tasklist", '"git.exe","5120","Console","1","9,876 K"\r\n', 0);
		expect(await createProcessProbe(hostAt("win32"))()).toBe("unknown");
	});

	it("cannot tell when tasklist fails", async () => {
		program("tasklist", "", 1);
		expect(await createProcessProbe(hostAt("win32"))()).toBe("unknown");
	});
});

it("cannot tell on any other system", async () => {
	processIn("101", "git", "/vaults/notes");
	expect(await createProcessProbe(hostAt("freebsd"))()).toBe("unknown");
});

describe("isInside", () => {
	const roots = ["/vaults/notes", "/vaults/notes/.git"];
	it.each([
		["/vaults/notes", true],
		["/vaults/notes/", true],
		["/vaults/notes/Daily/2026", true],
		["/vaults/notes/.git/modules/x", true],
		["/vaults/notes-archive", false],
		["/vaults", false],
		["/elsewhere", false],
	])("%s in the repository: %s", (path, inside) => expect(isInside(path, roots)).toBe(inside));

	it("reads Windows paths with either separator", () => {
		expect(isInside("C:\\Users\\ana\\vault\\Daily", ["C:/Users/ana/vault/"])).toBe(true);
		expect(isInside("C:\\Users\\ana\\vault2", ["C:/Users/ana/vault"])).toBe(false);
	});
});
