/**
 * The plugin's SQLite worker: a Web Worker started from a Blob URL over the bundled source
 * (no `import()`, nothing fetched: esbuild builds src/ui/db/sqlite-worker.ts for the `worker:`
 * import and main.js carries it as a string). The driver around it is the core's
 * (src/runner/db/worker-driver.ts) and so is run history's (src/runner/worker-history.ts); each
 * worker is handed sql.js's embedded WebAssembly as text and decodes it itself, off the main thread.
 */
import type { WorkerRequest, WorkerResponse } from "../../runner/db/sqlite-worker-protocol";
import type { WorkerEvents, WorkerLink } from "../../runner/db/worker-driver";

/**
 * A Blob-URL worker over the bundled source; null where this environment has no workers. The
 * messages pass through as they are: the one source speaks both the db protocol and run history's.
 */
export function blobWorker<Request = WorkerRequest, Response = WorkerResponse>(events: WorkerEvents<Response>): WorkerLink<Request> | null {
	if (typeof Worker === "undefined" || typeof Blob === "undefined" || typeof URL.createObjectURL !== "function") return null;
	// Required here, not imported: main.js carries the source as a text module, read on the first
	// SQLite run (docs/architecture.md, "Text modules").
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	const source = require("worker:./sqlite-worker") as string;
	const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
	let worker: Worker;
	try {
		worker = new Worker(url);
	} catch {
		return null;
	} finally {
		// The worker has fetched its script once constructed; the URL is not needed after.
		window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
	}
	worker.onmessage = (e: MessageEvent<Response>) => events.message(e.data);
	worker.onerror = (e: ErrorEvent) => {
		e.preventDefault();
		events.gone(e.message);
	};
	return {
		post: (request, transfer) => worker.postMessage(request, transfer),
		terminate: () => worker.terminate(),
	};
}
