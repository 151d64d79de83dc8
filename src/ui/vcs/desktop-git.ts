import { FileSystemAdapter, Platform, type App } from "obsidian";
import { createNodeVcsFs, createProcessProbe, type ExecFilePort, type FsPromisesLike, type GitProcessProbe, type GitRunnerConfig, type ProbeHost, type VcsFs } from "../../vcs";

/** The ports the version-control core needs on this device. */
export interface DesktopGit {
	config: GitRunnerConfig;
	fs: VcsFs;
	probe: GitProcessProbe;
}

interface NodeModules {
	execFile: ExecFilePort;
	fsp: FsPromisesLike & { readdir(p: string): Promise<string[]>; readlink(p: string): Promise<string> };
	platform: string;
	env: Record<string, string | undefined>;
}

/**
 * The system git, through Node's `child_process.execFile`, or null on mobile (and in a vault that
 * is not a folder on disk). Node's builtins come through the CommonJS `require` Obsidian desktop
 * gives main.js, only behind Platform.isDesktopApp (as the node transport does).
 */
export function desktopGit(app: App): DesktopGit | null {
	const adapter = app.vault.adapter;
	if (!Platform.isDesktopApp || !(adapter instanceof FileSystemAdapter)) return null;
	const node = requireNode();
	const probeHost: ProbeHost = {
		platform: node.platform,
		readdir: (p) => node.fsp.readdir(p),
		readlink: (p) => node.fsp.readlink(p),
		readFile: (p) => node.fsp.readFile(p, "utf8"),
		execFile: node.execFile,
	};
	return {
		config: { execFile: node.execFile, cwd: adapter.getBasePath(), baseEnv: node.env, pause: yieldToUi },
		fs: createNodeVcsFs(node.fsp),
		probe: createProcessProbe(probeHost),
	};
}

/** Called only from desktopGit, after its Platform.isDesktopApp check (the desktop app is always isDesktop). */
function requireNode(): NodeModules {
	if (!Platform.isDesktop) throw new Error("bug: Node builtins asked for outside the desktop app");
	/* eslint-disable @typescript-eslint/no-require-imports -- require is the only loader Obsidian gives a plugin for Node builtins (see src/runner/http/node-transport.ts) */
	const cp = require("child_process") as { execFile: ExecFilePort };
	const fsp = require("fs/promises") as NodeModules["fsp"];
	const proc = require("process") as { platform: string; env: Record<string, string | undefined> };
	/* eslint-enable @typescript-eslint/no-require-imports -- end of the builtins */
	const execFile: ExecFilePort = (file, args, options, callback) => cp.execFile(file, args, options, callback);
	return { execFile, fsp, platform: proc.platform, env: proc.env };
}

/** A turn for the UI between slices of work: Chromium's scheduler.yield where there is one (it keeps our place in line), else a macrotask. */
function yieldToUi(): Promise<void> {
	const scheduler = (window as unknown as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
	if (typeof scheduler?.yield === "function") return scheduler.yield();
	return new Promise((resolve) => window.setTimeout(resolve, 0));
}
