import { isHistoryRequest } from "../../../src/runner/history-worker-protocol";

describe("isHistoryRequest", () => {
	it("claims the store's operations and the answers to the worker's storage calls", () => {
		for (const op of ["history.open", "history.record", "history.rename", "history.list", "history.reload", "history.close", "storage.result", "storage.failed"]) expect([op, isHistoryRequest({ op })]).toEqual([op, true]);
	});

	it("leaves the db driver's messages, sharing the same worker, to the db handler", () => {
		for (const op of ["init", "run", "explain", "schema", "history", "storage", "xhistory.open"]) expect([op, isHistoryRequest({ op })]).toEqual([op, false]);
	});
});
