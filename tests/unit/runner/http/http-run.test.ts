import type { AliasPath } from "../../../../src/blocks";
import { bodyText, httpFailedBeforeStart, httpFields, readerOf, readHttpPath, type HttpRun, type ResponseReaders } from "../../../../src/runner/http/http-run";
import type { PreparedRequest } from "../../../../src/runner/request";
import type { RunSnapshot } from "../../../../src/runner/result";

const request: PreparedRequest = { method: "POST", url: "http://127.0.0.1/login", headers: [["X-Trace", "a"], ["x-trace", "b"]], body: '{"user":"ana"}', followRedirects: true, timeoutMs: 1000 };
const latin1 = new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]); // {"n":"é"} in ISO-8859-1
const run: HttpRun = {
	kind: "http",
	state: "done",
	receivedBytes: latin1.length,
	request,
	head: { status: 201, statusText: "Created", httpVersion: "1.1", headers: [["Content-Type", "application/json; charset=iso-8859-1"], ["Set-Cookie", "a=1"], ["set-cookie", "b=2"]], url: request.url, redirects: 0 },
	body: latin1,
};
const path = (part: AliasPath["part"], section: AliasPath["section"], selector = ""): AliasPath => ({ alias: "login", part, section, selector });

describe("readHttpPath", () => {
	it("reads the response's status, headers (repeated ones joined) and body in its charset", () => {
		expect(readHttpPath(run, path("response", "status"), {})).toEqual({ ok: true, value: "201" });
		expect(readHttpPath(run, path("response", "headers", "SET-COOKIE"), {})).toEqual({ ok: true, value: "a=1, b=2" });
		expect(readHttpPath(run, path("response", "body", "*"), {})).toEqual({ ok: true, value: '{"n":"é"}' });
		expect(readHttpPath(run, path("response", "body", "$.n"), {})).toEqual({ ok: true, value: "é" });
	});

	it("reads the request that was sent", () => {
		expect(readHttpPath(run, path("request", "headers", "X-Trace"), {})).toEqual({ ok: true, value: "a, b" });
		expect(readHttpPath(run, path("request", "body", "*"), {})).toEqual({ ok: true, value: '{"user":"ana"}' });
		expect(readHttpPath(run, path("request", "body", "$.user"), {})).toEqual({ ok: true, value: "ana" });
		expect(readHttpPath(run, path("request", "status"), {})).toEqual({ ok: false, message: "requests have no status" });
	});

	it("says what is missing", () => {
		expect(readHttpPath(run, path("response", "headers", "ETag"), {})).toEqual({ ok: false, message: 'login.response has no header "ETag"' });
		expect(readHttpPath(run, path("response", "rowCount"), {})).toEqual({ ok: false, message: 'block "login" is not a db block: rowCount belongs to db results' });
		expect(readHttpPath({ ...run, request: undefined }, path("request", "body", "*"), {})).toEqual({ ok: false, message: 'block "login" has no request' });
		expect(readHttpPath({ ...run, head: undefined }, path("response", "status"), {})).toEqual({ ok: false, message: 'block "login" has no response' });
	});

	it("refuses the response of a run that did not end with one, saying how it ended", () => {
		const failed: HttpRun = { ...run, state: "failed", error: { code: "connect_failed", message: "Failed to connect" } };
		expect(readHttpPath(failed, path("response", "status"), {})).toEqual({ ok: false, message: 'block "login" ended failed (Failed to connect), so it has no response' });
		expect(readHttpPath({ ...run, state: "cancelled" }, path("response", "status"), {})).toEqual({ ok: false, message: 'block "login" ended cancelled, so it has no response' });
		expect(readHttpPath({ ...run, state: "cached" }, path("response", "status"), {})).toEqual({ ok: true, value: "201" });
	});
});

describe("readHttpPath: messages, with the readers lent", () => {
	/** Each reader says which it is and what it was handed, so a test sees which one was asked. */
	const readers: ResponseReaders = {
		"text/event-stream": (body, selector, label) => ({ ok: true, value: `events ${label} ${selector} ${new TextDecoder().decode(body)}` }),
		"application/x-ndjson": (_body, selector) => ({ ok: true, value: `lines ${selector}` }),
	};
	const withType = (contentType: string | null): HttpRun => ({
		...run,
		head: { ...run.head!, headers: contentType === null ? [] : [["content-type", contentType]] },
		body: new TextEncoder().encode("data: a"),
	});

	it.each([
		["text/event-stream", "events login.response -1 data: a"],
		[" TEXT/Event-Stream; charset=utf-8", "events login.response -1 data: a"],
		["application/x-ndjson", "lines -1"],
	])("reads a %j body's messages with the reader of its media type", (type, value) => {
		expect(readHttpPath(withType(type), path("response", "messages", "-1"), readers)).toEqual({ ok: true, value });
	});

	it.each([["text/event-streams"], ["application/json"], [null]])("refuses the messages of a %j body, naming what has them", (type) => {
		expect(readHttpPath(withType(type), path("response", "messages", "count"), readers)).toEqual({ ok: false, message: "login.response is not a stream of messages (text/event-stream, application/x-ndjson), so it has no messages" });
	});

	it("reads no messages where none is lent", () => {
		expect(readHttpPath(withType("text/event-stream"), path("response", "messages", "count"), {})).toEqual({ ok: false, message: "login.response is not a stream of messages, so it has no messages" });
	});

	it("finds no reader by a name an object has of its own (toString, constructor)", () => {
		expect(readerOf(readers, [["Content-Type", "constructor"]])).toBeUndefined();
		expect(readerOf(readers, [["Content-Type", "application/x-ndjson"]])).toBe(readers["application/x-ndjson"]);
	});
});

describe("bodyText", () => {
	it("decodes the body in the response's charset, and reads no body as empty", () => {
		expect(bodyText(run)).toBe('{"n":"é"}');
		expect(bodyText({})).toBe("");
	});

	it("reads the same bytes again in the charset of the headers they come with", () => {
		const utf8 = { head: { ...run.head!, headers: [["Content-Type", "application/json; charset=utf-8"]] as Array<[string, string]> }, body: latin1 };
		expect(bodyText(run)).toBe('{"n":"é"}');
		expect(bodyText(utf8)).toBe('{"n":"\uFFFD"}');
		expect(bodyText(run)).toBe('{"n":"é"}');
	});
});

describe("httpFailedBeforeStart", () => {
	const error = { code: "unresolved_reference" as const, message: "no token" };

	it("is a failed http run with nothing received, and the request when it got that far", () => {
		expect(httpFailedBeforeStart(error)).toEqual({ kind: "http", state: "failed", receivedBytes: 0, error });
		expect(httpFailedBeforeStart(error, request)).toEqual({ kind: "http", state: "failed", receivedBytes: 0, error, request });
	});
});

describe("httpFields", () => {
	it("sees an http run, or one of no kind, as it is", () => {
		expect(httpFields(run)).toBe(run);
		const idle: RunSnapshot = { state: "idle" };
		expect(httpFields(idle)).toBe(idle);
	});

	it("sees another kind's run by the fields every run has", () => {
		const db = { kind: "db", state: "done", startedAt: 5, timing: { total: 2 }, results: [] } as unknown as RunSnapshot;
		expect(httpFields(db)).toEqual({ state: "done", error: undefined, startedAt: 5, timing: { total: 2 } });
	});
});
