import { streamFailed, type StreamFailureCode } from "../../../../src/runner/stream/failures";

const CODES: StreamFailureCode[] = ["stream_unsupported", "stream_cors", "websocket_unavailable", "headers_not_sent", "stream_broken", "graphql_error"];

describe("streamFailed", () => {
	it.each(CODES)("gives %s its own text", (code) => {
		const f = streamFailed(code);
		expect(f.code).toBe(code);
		expect(f.message.length).toBeGreaterThan(0);
	});

	it("reads each code differently", () => {
		expect(new Set(CODES.map((c) => streamFailed(c).message)).size).toBe(CODES.length);
	});

	it("carries the detail only when given", () => {
		expect(streamFailed("stream_broken", "ECONNRESET")).toMatchObject({ detail: "ECONNRESET" });
		expect("detail" in streamFailed("stream_broken")).toBe(false);
	});
});
