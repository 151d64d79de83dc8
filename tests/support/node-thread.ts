/**
 * CLI code run as dist/cli.js runs it: bundled by esbuild (sql.js left to Node's own `require`)
 * and started as a worker thread with `eval`. For specs of modules that only run in a thread, or
 * that must resolve a package path jest maps to a stand-in (sql.js's wasm, jest.config.js).
 */
import { buildSync } from "esbuild";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

const ROOT = join(__dirname, "..", "..");

/** A thread running the module at `file` (repository-relative), or `source` written against the repository's root. */
export function startThread(entry: { file: string } | { source: string }, workerData?: unknown): Worker {
	return new Worker(bundled(entry), { eval: true, workerData });
}

const bundles = new Map<string, string>();

/** The entry bundled once per test file. */
function bundled(entry: { file: string } | { source: string }): string {
	const key = JSON.stringify(entry);
	const known = bundles.get(key);
	if (known !== undefined) return known;
	const where = "file" in entry ? { entryPoints: [join(ROOT, entry.file)] } : { stdin: { contents: entry.source, resolveDir: ROOT, loader: "ts" as const } };
	const out = buildSync({ ...where, bundle: true, platform: "node", target: "node18", format: "iife", external: ["sql.js"], write: false, logLevel: "error" });
	const code = out.outputFiles[0].text;
	bundles.set(key, code);
	return code;
}

/** The next message the thread posts; rejects if it fails or stops first. */
export function nextMessage<T>(worker: Worker): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const done = () => {
			worker.off("message", onMessage);
			worker.off("error", onError);
			worker.off("exit", onExit);
		};
		const onMessage = (m: T) => (done(), resolve(m));
		const onError = (e: Error) => (done(), reject(e));
		const onExit = (code: number) => (done(), reject(new Error(`the thread stopped (exit code ${code})`)));
		worker.on("message", onMessage);
		worker.on("error", onError);
		worker.on("exit", onExit);
	});
}
