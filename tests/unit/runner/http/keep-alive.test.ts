import { DEFAULT_IDLE_MS, idleLimitMs, retriesOnFreshConnection, type LostRequest } from "../../../../src/runner/http/keep-alive";

describe("idleLimitMs: how long a pooled connection may idle", () => {
	it.each([
		[undefined, DEFAULT_IDLE_MS],
		["", DEFAULT_IDLE_MS],
		["max=100", DEFAULT_IDLE_MS],
		["timeout=abc", DEFAULT_IDLE_MS],
		["timeout=5", 4_000],
		["timeout=5, max=100", 4_000],
		["max=100, timeout=60", 59_000],
		["Timeout = 3", 2_000],
		['timeout="2"', 1_000],
		["timeout=1", 0],
		["timeout=0", 0],
	])("Keep-Alive %j keeps it %d ms (the server's timeout less a second; 0: not kept)", (hint, ms) => expect(idleLimitMs(hint)).toBe(ms));
});

/** A GET lost on a reused connection by a reset after it was written: the case that is resent. */
const lost = (patch: Partial<LostRequest> = {}): LostRequest => ({ method: "GET", reusedSocket: true, responseBytes: 0, idempotencyKey: false, code: "ECONNRESET", syscall: undefined, ...patch });

describe("retriesOnFreshConnection: what a stale keep-alive connection may cost", () => {
	it.each(["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"])("resends an idempotent %s lost on a reused connection", (method) => {
		expect(retriesOnFreshConnection(lost({ method }))).toBe(true);
	});

	it.each(["ECONNRESET", "EPIPE", "ECONNABORTED"])("resends on %s", (code) => expect(retriesOnFreshConnection(lost({ code }))).toBe(true));

	it.each([
		["a POST the server may have read", { method: "POST" }],
		["a PATCH the server may have read", { method: "PATCH" }],
		["an unknown method", { method: "PURGE" }],
		["a method not spelled as the standard one (methods are case-sensitive)", { method: "get" }],
		["a request lost on a fresh connection", { reusedSocket: false }],
		["a fresh connection even when the write failed", { reusedSocket: false, method: "POST", code: "EPIPE", syscall: "write" }],
		["a request whose response had begun", { responseBytes: 1 }],
		["a failure that is not a lost connection", { code: "ETIMEDOUT" }],
		["an error without a code", { code: undefined }],
	] as const)("never resends %s", (_what, patch) => expect(retriesOnFreshConnection(lost(patch))).toBe(false));

	it.each([
		["the kernel refused its bytes (EPIPE)", { code: "EPIPE", syscall: "write" }],
		["its write was reset", { code: "ECONNRESET", syscall: "write" }],
		["Node refused to write on an ended socket", { code: "ERR_STREAM_WRITE_AFTER_END" }],
		["Node refused to write on a destroyed socket", { code: "ERR_STREAM_DESTROYED" }],
		["it carries an idempotency key", { idempotencyKey: true }],
	] as const)("resends a POST when %s", (_what, patch) => expect(retriesOnFreshConnection(lost({ method: "POST", ...patch }))).toBe(true));
});
