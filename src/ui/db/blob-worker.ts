/**
 * The plugin's SQLite worker: a Web Worker started from a Blob URL over the bundled source
 * (no `import()`, nothing fetched: esbuild builds src/ui/db/sqlite-worker.ts for the `worker:`
 * import and main.js carries it as a string). The driver around it is the core's
 * (src/runner/db/worker-driver.ts); sql.js's WebAssembly is decoded once on the main thread and
 * a copy handed to each worker.
 */
import type { WorkerResponse } from "../../runner/db/sqlite-worker-protocol";
import type { WorkerFactory } from "../../runner/db/worker-driver";

/** A Blob-URL worker over the bundled source; null where this environment has no workers. */
export const blobWorker: WorkerFactory = (events) => {
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
	worker.onmessage = (e: MessageEvent<WorkerResponse>) => events.message(e.data);
	worker.onerror = (e: ErrorEvent) => {
		e.preventDefault();
		events.gone(e.message);
	};
	return {
		post: (request, transfer) => worker.postMessage(request, transfer),
		terminate: () => worker.terminate(),
	};
};
