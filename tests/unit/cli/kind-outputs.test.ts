import { assertionsOf, exchangeOf, KIND_OUTPUTS, outputOf } from "../../../src/cli/kind-outputs";
import type { BlockResult } from "../../../src/runner/result";

const head = { status: 101, statusText: "Switching Protocols", headers: [] as Array<[string, string]> };

describe("the CLI output of each kind", () => {
	it("lists the kinds whose output differs from http's: the streams", () => {
		expect(Object.keys(KIND_OUTPUTS)).toEqual(["sse", "websocket"]);
		expect(outputOf("http")).toBeUndefined();
		expect(outputOf(undefined)).toBeUndefined();
	});

	it("reads a stream's run as its handshake's exchange, an http run as it is", () => {
		const stream = { kind: "websocket", state: "done", head, assertions: [{ ok: true, text: "x", line: 3 }], messages: [], counts: { received: 0, sent: 0, receivedBytes: 0, sentBytes: 0 } } as unknown as BlockResult;
		expect(exchangeOf(stream).head).toBe(head);
		expect(assertionsOf(stream)).toEqual([{ ok: true, text: "x", line: 3 }]);
		const http = { kind: "http", state: "done", receivedBytes: 0, head } as BlockResult;
		expect(exchangeOf(http)).toBe(http);
		expect(assertionsOf({ kind: "db", state: "done" })).toBeUndefined();
	});
});
