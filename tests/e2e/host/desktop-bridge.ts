/**
 * The page half of the desktop bridge (tests/e2e/support/git-bridge.ts): `child_process`,
 * `fs/promises` and `process` as main.js requires them on desktop, answered by the test server.
 * No AbortSignal crosses the bridge; cancellation is specified with real Node elsewhere.
 */
type Callback = (error: unknown, stdout: string, stderr: string) => void;

const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => (await fetch(path, { method: "POST", body: JSON.stringify(body) })).json() as Promise<Record<string, unknown>>;

async function fsCall(op: string, path: string, text?: string): Promise<unknown> {
	const r = await post("/__bridge/fs", { op, path, text });
	if (r.ok) return r.value;
	throw Object.assign(new Error(String(r.code)), { code: r.code });
}

export function desktopBridgeModules(): Record<string, unknown> {
	return {
		child_process: {
			execFile(file: string, args: string[], options: { cwd: string; env: Record<string, string>; timeout: number }, callback: Callback) {
				post("/__bridge/execFile", { file, args, cwd: options.cwd, env: options.env, timeout: options.timeout }).then(
					(r) => callback(r.error ?? null, typeof r.stdout === "string" ? r.stdout : "", typeof r.stderr === "string" ? r.stderr : ""),
					(e: unknown) => callback({ message: String(e) }, "", ""),
				);
				return {};
			},
		},
		"fs/promises": {
			access: (p: string) => fsCall("access", p),
			readFile: (p: string) => fsCall("readFile", p),
			writeFile: (p: string, text: string) => fsCall("writeFile", p, text),
			unlink: (p: string) => fsCall("unlink", p),
			copyFile: (from: string, to: string) => fsCall("copyFile", from, to),
			readdir: () => Promise.reject(new Error("bridge: no readdir")),
			readlink: () => Promise.reject(new Error("bridge: no readlink")),
		},
		// The probe cannot list processes through the bridge: "unknown" platform keeps any lock.
		process: { platform: "bridge", env: {} },
	};
}
