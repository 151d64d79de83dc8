import { createFallbackTransport } from "../../../src/chat/stream-fallback";
import type { PreparedRequest } from "../../../src/runner/request";
import { failed, type Transport, type TransportOutcome } from "../../../src/runner/transport";

const done: TransportOutcome = {
	kind: "done",
	head: { status: 200, statusText: "OK", httpVersion: "1.1", headers: [], url: "http://127.0.0.1/", redirects: 0 },
	body: new Uint8Array(),
	timing: { total: 1 },
	requestBytes: 0,
	rawRequestHead: "",
};
const refused = failed("connect_failed", "Failed to fetch", { total: 1 });

/** A transport that answers from a script and counts its calls. */
function scripted(name: Transport["name"], streams: boolean, outcomes: TransportOutcome[]): Transport & { calls: number } {
	const t = {
		name,
		streams,
		calls: 0,
		send: () => {
			t.calls++;
			return Promise.resolve(outcomes[Math.min(t.calls, outcomes.length) - 1]);
		},
	};
	return t;
}

const request = {} as PreparedRequest;

describe("createFallbackTransport", () => {
	it("streams while the streaming transport reaches the server", async () => {
		const streaming = scripted("fetch", true, [done]);
		const whole = scripted("obsidian", false, [done]);
		const t = createFallbackTransport(streaming, whole);
		await expect(t.send(request)).resolves.toBe(done);
		expect([whole.calls, t.fellBack, t.name, t.streams]).toEqual([0, false, "fetch", true]);
	});

	it("gives way for good to the whole transport when only that one reaches the server", async () => {
		const streaming = scripted("fetch", true, [refused]);
		const whole = scripted("obsidian", false, [done]);
		const t = createFallbackTransport(streaming, whole);
		await expect(t.send(request)).resolves.toBe(done);
		expect([t.fellBack, t.name, t.streams]).toEqual([true, "obsidian", false]);
		await t.send(request);
		expect([streaming.calls, whole.calls]).toEqual([1, 2]);
	});

	it("returns the whole transport's failure and keeps streaming when the server is down", async () => {
		const down = failed("connect_failed", "ECONNREFUSED", { total: 1 });
		const streaming = scripted("fetch", true, [refused]);
		const whole = scripted("obsidian", false, [down]);
		const t = createFallbackTransport(streaming, whole);
		await expect(t.send(request)).resolves.toBe(down);
		expect(t.fellBack).toBe(false);
	});

	it("does not retry other failures, or a request the user cancelled", async () => {
		const broken = failed("protocol_error", "socket hang up", { total: 1 });
		const whole = scripted("obsidian", false, [done]);
		await expect(createFallbackTransport(scripted("fetch", true, [broken]), whole).send(request)).resolves.toBe(broken);
		const aborted = new AbortController();
		aborted.abort();
		await expect(createFallbackTransport(scripted("fetch", true, [refused]), whole).send(request, { signal: aborted.signal })).resolves.toBe(refused);
		expect(whole.calls).toBe(0);
	});
});
