/**
 * The desktop app's `child_process.execFile` and `fs/promises` for the Chromium page, run by the
 * test server's Node process (the page has no Node). Only for the version-control tests: `git`
 * only, and every path inside the vault folder. The page half is tests/e2e/host/desktop-bridge.ts.
 */
import { execFile } from "node:child_process";
import * as fsp from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { resolve, sep } from "node:path";

type Body = { file?: string; args?: string[]; cwd?: string; env?: Record<string, string>; timeout?: number; op?: string; path?: string; text?: string };

const inside = (root: string, p: string) => {
	const r = resolve(p);
	return r === root || r.startsWith(root + sep);
};

let running = 0;
const idle: Array<() => void> = [];
/** Resolves once no git the bridge started is still running (the vault folder can then be removed). */
export function whenBridgeIdle(): Promise<void> {
	return running === 0 ? Promise.resolve() : new Promise((r) => idle.push(r));
}

/** Answers POST /__bridge/execFile and /__bridge/fs; returns false for any other path. */
export function handleBridge(path: string, req: IncomingMessage, res: ServerResponse, vaultDir: string): boolean {
	if (req.method !== "POST" || (path !== "/__bridge/execFile" && path !== "/__bridge/fs")) return false;
	const chunks: Buffer[] = [];
	req.on("data", (c: Buffer) => chunks.push(c));
	req.on("end", () => {
		const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Body;
		const answer = (value: unknown) => {
			res.writeHead(200, { "Content-Type": "application/json" });
			res.end(JSON.stringify(value));
		};
		if (path === "/__bridge/execFile") {
			if (body.file !== "git" || !body.cwd || !inside(vaultDir, body.cwd)) return answer({ error: { code: "EACCES", message: "bridge: git inside the vault only" }, stdout: "", stderr: "" });
			running++;
			execFile("git", body.args ?? [], { cwd: body.cwd, env: { ...process.env, ...body.env }, timeout: body.timeout, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" }, (error, stdout, stderr) => {
				if (--running === 0) for (const r of idle.splice(0)) r();
				answer({ error: error ? { code: error.code ?? null, killed: error.killed, signal: error.signal ?? null, message: error.message } : null, stdout, stderr });
			});
			return;
		}
		const p = body.path ?? "";
		if (!inside(vaultDir, p)) return answer({ ok: false, code: "EACCES" });
		const ops: Record<string, () => Promise<unknown>> = {
			access: () => fsp.access(p),
			readFile: () => fsp.readFile(p, "utf8"),
			writeFile: () => fsp.writeFile(p, body.text ?? "", "utf8"),
			unlink: () => fsp.unlink(p),
			// A safety point copies the index; the target travels as `text`, inside the vault too.
			copyFile: () => (inside(vaultDir, body.text ?? "") ? fsp.copyFile(p, body.text ?? "") : Promise.reject(Object.assign(new Error("outside"), { code: "EACCES" }))),
		};
		const op = ops[body.op ?? ""];
		if (!op) return answer({ ok: false, code: "ENOSYS" });
		op().then(
			(value) => answer({ ok: true, value: value ?? null }),
			(e: NodeJS.ErrnoException) => answer({ ok: false, code: e.code ?? "EIO" }),
		);
	});
	return true;
}
