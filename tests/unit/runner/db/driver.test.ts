import { cancellation, dbFailed, exactInteger, hexBytes, nearOffset, saveFailed, sqlFailed, valueText } from "../../../../src/runner/db/driver";

describe("valueText", () => {
	it("shows strings as they are and every other value as JSON", () => {
		expect(["a\"b", 12, 1.5, true, null, ["x"], { k: 1 }].map(valueText)).toEqual(['a"b', "12", "1.5", "true", "null", '["x"]', '{"k":1}']);
	});
});

describe("failures", () => {
	const startedAt = Date.now();
	const withoutTiming = (o: object) => ({ ...o, timing: undefined });

	it("gives a failure its code's text and the system's words as detail", () => {
		expect(withoutTiming(dbFailed("auth_failed", "password authentication failed", startedAt, { engineCode: "28P01" }))).toEqual({
			kind: "failed",
			code: "auth_failed",
			message: "Authentication failed",
			detail: "password authentication failed",
			engineCode: "28P01",
			timing: undefined,
		});
		expect(dbFailed("connect_failed", undefined, startedAt)).not.toHaveProperty("detail");
	});

	it("makes the engine's words the message of a refused statement, with where it points", () => {
		const out = sqlFailed('near "FORM": syntax error', startedAt, { engineCode: "SQLITE_ERROR", position: { statement: 0, offset: 9 } });
		expect(out).toMatchObject({ kind: "failed", code: "sql_error", message: 'near "FORM": syntax error', engineCode: "SQLITE_ERROR", position: { statement: 0, offset: 9 } });
		expect(sqlFailed("", startedAt)).toMatchObject({ message: "Query failed" });
	});

	it("names the file a changed database could not be saved to", () => {
		expect(saveFailed("data/shop.sqlite", new Error("EACCES"), startedAt)).toMatchObject({ code: "save_failed", message: "Could not save the database", detail: "data/shop.sqlite: EACCES" });
		expect(saveFailed("a.sqlite", "disk full", startedAt)).toMatchObject({ detail: "a.sqlite: disk full" });
	});

	it("measures the time since the run started", () => {
		const out = dbFailed("connect_failed", undefined, startedAt - 250);
		expect(out.timing.total).toBeGreaterThanOrEqual(250);
	});
});

describe("hexBytes", () => {
	it("writes bytes as PostgreSQL's \\x hex, two digits each", () => {
		expect(hexBytes(new Uint8Array([0, 15, 16, 255]))).toBe("\\x000f10ff");
		expect(hexBytes(new Uint8Array())).toBe("\\x");
	});
});

describe("exactInteger", () => {
	it("gives a number when it is exact, the decimal text otherwise", () => {
		expect(exactInteger(42n)).toBe(42);
		expect(exactInteger("-9007199254740991")).toBe(-9007199254740991);
		expect(exactInteger(9007199254740992n)).toBe("9007199254740992");
		expect(exactInteger("-9007199254740992")).toBe("-9007199254740992");
	});
});

describe("cancellation", () => {
	afterEach(() => jest.useRealTimers());

	it("cancels once when the user aborts, and says so", () => {
		const controller = new AbortController();
		const onCancel = jest.fn();
		const c = cancellation({ signal: controller.signal, timeoutMs: 60_000, maxRows: 1 }, onCancel);
		expect(c.reason()).toBeNull();
		controller.abort();
		controller.abort();
		expect(onCancel).toHaveBeenCalledTimes(1);
		expect(c.reason()).toBe("user");
		c.dispose();
	});

	it("cancels when the timeout passes first, and not again on a later abort", () => {
		jest.useFakeTimers();
		const controller = new AbortController();
		const onCancel = jest.fn();
		const c = cancellation({ signal: controller.signal, timeoutMs: 500, maxRows: 1 }, onCancel);
		jest.advanceTimersByTime(499);
		expect(onCancel).not.toHaveBeenCalled();
		jest.advanceTimersByTime(1);
		controller.abort();
		expect(c.reason()).toBe("timeout");
		expect(onCancel).toHaveBeenCalledTimes(1);
	});

	it("cancels a query whose signal was aborted before it started", async () => {
		const onCancel = jest.fn();
		const c = cancellation({ signal: AbortSignal.abort(), timeoutMs: 60_000, maxRows: 1 }, onCancel);
		await Promise.resolve();
		expect(c.reason()).toBe("user");
		c.dispose();
	});

	it("does nothing after dispose", () => {
		jest.useFakeTimers();
		const controller = new AbortController();
		const onCancel = jest.fn();
		cancellation({ signal: controller.signal, timeoutMs: 500, maxRows: 1 }, onCancel).dispose();
		jest.advanceTimersByTime(1000);
		controller.abort();
		expect(onCancel).not.toHaveBeenCalled();
	});
});

describe("nearOffset", () => {
	it("finds the quoted text an engine's message points near", () => {
		expect(nearOffset("SELECT * FORM t", 'near "FORM": syntax error')).toBe(9);
		expect(nearOffset("SELECT 1;\nSELEC 2", "You have an error in your SQL syntax; check the manual near 'SELEC 2' at line 2")).toBe(10);
	});

	it("looks from the line it is told, falling back to the first occurrence", () => {
		const sql = "SELECT x\nFROM x\nWHERE x";
		expect(nearOffset(sql, 'near "x": no such column', 3)).toBe(sql.lastIndexOf("x"));
		expect(nearOffset(sql, 'near "x": no such column', 9)).toBe(7);
	});

	it("finds nothing without a near quote, or with an empty one", () => {
		expect(nearOffset("SELECT", "no such table: t")).toBeUndefined();
		expect(nearOffset("SELECT", 'near "": syntax error')).toBeUndefined();
	});
});
