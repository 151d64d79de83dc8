/**
 * SQLite for the CLI's db blocks in a worker thread, so that Stop, a timeout and Ctrl+C end even
 * one endless statement at once (sql.js on the calling thread could only stop between
 * statements, and the signal itself waited for the statement). The worker's code is bundled into
 * dist/cli.js as a string and started with `eval`: no second file to ship, no `import()`.
 */
import { Worker } from "node:worker_threads";
import workerSource from "worker:./sqlite-worker";
import type { WorkerResponse } from "../runner/db/sqlite-worker-protocol";
import type { WorkerFactory } from "../runner/db/worker-driver";

/** A worker thread over the bundled source; null without one (jest maps `worker:` imports to ""). */
export const threadWorker: WorkerFactory = (events) => {
	if (workerSource === "") return null;
	let worker: Worker;
	try {
		worker = new Worker(workerSource, { eval: true, workerData: { sqlJs: require.resolve("sql.js") } });
	} catch {
		return null;
	}
	worker.on("message", (response: WorkerResponse) => events.message(response));
	worker.on("error", (e) => events.gone(e.message));
	worker.on("exit", (code) => events.gone(`the SQLite worker stopped (exit code ${code})`));
	return {
		post: (request, transfer) => worker.postMessage(request, transfer),
		terminate: () => void worker.terminate(),
	};
};
