/**
 * @jest-environment jsdom
 *
 * jsdom has no Web Workers and no object URLs: where the spec needs them, it gives the page the
 * smallest stand-ins of those browser APIs (a Worker that keeps what it is sent, URLs it counts).
 */
import { blobWorker } from "../../../../src/ui/db/blob-worker";
import type { WorkerResponse } from "../../../../src/runner/db/sqlite-worker-protocol";

class StandInWorker {
	static made: StandInWorker[] = [];
	static refuse = false;
	posted: unknown[] = [];
	terminated = false;
	onmessage: ((e: MessageEvent) => void) | null = null;
	onerror: ((e: ErrorEvent) => void) | null = null;
	constructor(readonly url: string) {
		if (StandInWorker.refuse) throw new DOMException("blocked by the content security policy", "SecurityError");
		StandInWorker.made.push(this);
	}
	postMessage(message: unknown): void {
		this.posted.push(message);
	}
	terminate(): void {
		this.terminated = true;
	}
}

const urls = { made: [] as string[], revoked: [] as string[] };
const page = globalThis as unknown as { Worker?: unknown };

function givePageWorkers(): void {
	page.Worker = StandInWorker;
	URL.createObjectURL = (blob: Blob) => {
		const url = `blob:test/${urls.made.length}-${blob.type}`;
		urls.made.push(url);
		return url;
	};
	URL.revokeObjectURL = (url: string) => void urls.revoked.push(url);
}

function events() {
	const got = { messages: [] as WorkerResponse[], gone: [] as string[] };
	return { got, events: { message: (m: WorkerResponse) => got.messages.push(m), gone: (reason: string) => got.gone.push(reason) } };
}

beforeEach(() => {
	StandInWorker.made = [];
	StandInWorker.refuse = false;
	urls.made = [];
	urls.revoked = [];
	jest.useFakeTimers();
});
afterEach(() => {
	delete page.Worker;
	jest.useRealTimers();
});

describe("blobWorker", () => {
	it("is null where the page has no workers, so queries run on the calling thread", () => {
		expect(blobWorker(events().events)).toBeNull();
	});

	it("starts a worker from a blob URL of the bundled source and lets go of the URL later", () => {
		givePageWorkers();
		expect(blobWorker(events().events)).not.toBeNull();
		expect(StandInWorker.made.map((w) => w.url)).toEqual(["blob:test/0-text/javascript"]);
		expect(urls.revoked).toEqual([]);
		jest.advanceTimersByTime(10_000);
		expect(urls.revoked).toEqual(["blob:test/0-text/javascript"]);
	});

	it("passes messages both ways and terminates the worker", () => {
		givePageWorkers();
		const { got, events: e } = events();
		const link = blobWorker(e);
		const worker = StandInWorker.made[0];
		link?.post({ id: 1, op: "schema", file: { path: "a.sqlite", bytes: null, readonly: true } }, []);
		expect(worker.posted).toEqual([{ id: 1, op: "schema", file: { path: "a.sqlite", bytes: null, readonly: true } }]);
		worker.onmessage?.(new MessageEvent("message", { data: { id: 1, op: "ready" } }));
		expect(got.messages).toEqual([{ id: 1, op: "ready" }]);
		link?.terminate();
		expect(worker.terminated).toBe(true);
	});

	it("reports a worker that died with the reason, keeping the error from the console", () => {
		givePageWorkers();
		const { got, events: e } = events();
		blobWorker(e);
		const error = new ErrorEvent("error", { message: "out of memory", cancelable: true });
		StandInWorker.made[0].onerror?.(error);
		expect(got.gone).toEqual(["out of memory"]);
		expect(error.defaultPrevented).toBe(true);
	});

	it("is null where the page refuses to start it (a content security policy), the URL still let go", () => {
		givePageWorkers();
		StandInWorker.refuse = true;
		expect(blobWorker(events().events)).toBeNull();
		jest.advanceTimersByTime(10_000);
		expect(urls.revoked).toEqual(urls.made);
	});
});
