/**
 * Which git processes are running, and where: a stale `index.lock` may be removed only when no
 * git process works in the repository (docs/vcs.md). Git chdirs into the repository it
 * works on, so a process's working directory tells which repository it holds.
 */
import type { ExecFilePort } from "./exec";

/** Working directories of the running git processes, or "unknown" when the system will not say. */
export type GitProcessProbe = () => Promise<string[] | "unknown">;

export interface ProbeHost {
	platform: string;
	readdir(path: string): Promise<string[]>;
	readlink(path: string): Promise<string>;
	readFile(path: string): Promise<string>;
	execFile: ExecFilePort;
}

export function createProcessProbe(host: ProbeHost): GitProcessProbe {
	if (host.platform === "linux") return () => fromProc(host);
	if (host.platform === "darwin") return () => fromLsof(host);
	if (host.platform === "win32") return () => fromTasklist(host);
	return () => Promise.resolve("unknown");
}

/** Linux: /proc/<pid>/comm names the program, /proc/<pid>/cwd is where it works. */
async function fromProc(host: ProbeHost): Promise<string[] | "unknown"> {
	let pids: string[];
	try {
		pids = (await host.readdir("/proc")).filter((p) => /^\d+$/.test(p));
	} catch {
		return "unknown";
	}
	const dirs: string[] = [];
	for (const pid of pids) {
		try {
			const comm = (await host.readFile(`/proc/${pid}/comm`)).trim();
			if (comm !== "git" && !comm.startsWith("git-")) continue;
			dirs.push(await host.readlink(`/proc/${pid}/cwd`));
		} catch {
			// The process ended meanwhile, or belongs to another user: it cannot hold our lock.
		}
	}
	return dirs;
}

function run(host: ProbeHost, file: string, args: string[]): Promise<{ code: number | string | null; stdout: string }> {
	return new Promise((resolve) => {
		host.execFile(file, args, { cwd: "/", env: {}, timeout: 10_000, maxBuffer: 8 * 1024 * 1024, encoding: "utf8", windowsHide: true }, (error, stdout) =>
			resolve({ code: error ? (error.code ?? -1) : 0, stdout: String(stdout ?? "") }),
		);
	});
}

/** macOS: lsof lists the cwd of processes whose name starts with "git" (`n` lines are names). */
async function fromLsof(host: ProbeHost): Promise<string[] | "unknown"> {
	const { code, stdout } = await run(host, "lsof", ["-a", "-c", "git", "-d", "cwd", "-Fn"]);
	if (code !== 0 && stdout.trim() === "") return code === 1 ? [] : "unknown"; // lsof exits 1 when nothing matched
	return stdout.split("\n").filter((l) => l.startsWith("n")).map((l) => l.slice(1));
}

/** Windows will not tell a process's directory without native code: any git.exe counts as holding. */
async function fromTasklist(host: ProbeHost): Promise<string[] | "unknown"> {
	const { code, stdout } = await run(host, "tasklist", ["/FI", "IMAGENAME eq git.exe", "/NH", "/FO", "CSV"]);
	if (code !== 0) return "unknown";
	return /git\.exe/i.test(stdout) ? "unknown" : [];
}

/** Whether a directory is one of the repository's own (its work tree or git dir), or inside one. */
export function isInside(dir: string, roots: readonly string[]): boolean {
	const norm = (p: string) => p.replace(/\\/g, "/").replace(/\/+$/, "");
	const d = norm(dir);
	return roots.map(norm).some((r) => d === r || d.startsWith(`${r}/`));
}
