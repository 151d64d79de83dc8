import type { AliasPath, Lookup } from "../../blocks";
import type { FinalState, RunCommon, RunError, RunSnapshot } from "../result";
import type { FailureCode } from "../failures";
import type { PreparedRequest } from "../request";
import { headerValue, parseContentType, responseText } from "../response/content-type";
import { selectJson } from "../select-json";
import type { ResponseHead, Timing, Transport } from "../transport";
import type { AssertionResult } from "../../blocks/assertions";
import type { AuthUse } from "../auth/run-auth";

/** An http block's run: the request sent, the response as it streams in, what the assertions found. */
export interface HttpRun extends RunCommon {
	kind: "http";
	request?: PreparedRequest;
	/** Request head as written to the wire (Raw tab). */
	rawRequestHead?: string;
	head?: ResponseHead;
	/** Decoded bytes received so far (streaming) or in total. */
	receivedBytes: number;
	/** The complete body; only for done and cached runs (partial bytes are never kept). */
	body?: Uint8Array;
	timing?: Timing;
	requestBytes?: number;
	/** Which transport ran it. */
	transport?: Transport["name"];
	/** For a run served from the cache: epoch ms when the cached response was fetched (its age). */
	cachedAt?: number;
	/** The block's `??` assertions checked against the response (absent when it has none or got no response). */
	assertions?: AssertionResult[];
	/** The OAuth configurations whose tokens the request carried (names only: the tokens stay in the session's cache). */
	authUsed?: AuthUse[];
}

declare module "../result" {
	interface KindRuns {
		http: HttpRun;
	}
	interface KindErrorCodes {
		http: FailureCode | "body_file_missing" | "body_file_outside" | "cert_file_missing" | "cert_file_outside";
	}
}

/** A finished http run, as the response cache keeps it. */
export type HttpResult = HttpRun & { state: FinalState };

/** An http block that could not be sent (bad block, unresolved reference, unreadable body file): the request when it got that far. */
export function httpFailedBeforeStart(error: RunError, request?: PreparedRequest): HttpResult {
	return { kind: "http", state: "failed", receivedBytes: 0, error, ...(request ? { request } : {}) };
}

/** A run as the response views read it: every field of an http run, optional; another kind's run shows only what all runs have. */
export type HttpView = RunCommon & Partial<HttpRun>;

/** A run seen through the http views: an http run as it is, another kind's run by its common fields only. */
export function httpFields(run: RunSnapshot): HttpView {
	if (run.kind === "http" || run.kind === undefined) return run;
	return { state: run.state, error: run.error, startedAt: run.startedAt, timing: run.timing };
}

/** Decoded small bodies by their bytes: a chained note reads one response once per reference. */
const decoded = new WeakMap<Uint8Array, { headers: ReadonlyArray<readonly [string, string]>; text: string }>();
/** Above this a body's text is not kept beside its bytes: large bodies are seldom referenced twice. */
const KEEP_TEXT_UP_TO = 64 * 1024;

/** Text of a run's response body in its charset (what chaining reads; the panel shows the same). */
export function bodyText(result: Pick<HttpRun, "head" | "body">): string {
	const headers = result.head?.headers ?? [];
	const body = result.body;
	if (!body || body.byteLength > KEEP_TEXT_UP_TO) return responseText(headers, body);
	const known = decoded.get(body);
	if (known?.headers === headers) return known.text;
	const text = responseText(headers, body);
	decoded.set(body, { headers, text });
	return text;
}

/**
 * Reads `messages.<selector>` of a response body that is a stream of messages, for `{{alias.response.messages…}}`.
 * `label`: the reference as its messages name it (`alias.response`).
 */
export type MessagesReader = (body: Uint8Array, selector: string, label: string) => Lookup;

/**
 * The body readers the http runner is lent, keyed by the media type each recognises (lower-case,
 * no parameters: `text/event-stream`). The kinds' rooms own them and the runner registry lends them
 * (src/runner/block-runners.ts), so a new one is a line there, never a change here.
 */
export type ResponseReaders = Readonly<Record<string, MessagesReader>>;

/** The lent reader of a response, by its Content-Type's media type (case and parameters aside), if one recognises it. */
export function readerOf(readers: ResponseReaders, headers: ReadonlyArray<readonly [string, string]>): MessagesReader | undefined {
	const { mime } = parseContentType(headerValue(headers, "content-type"));
	return Object.prototype.hasOwnProperty.call(readers, mime) ? readers[mime] : undefined;
}

function headerLookup(headers: Array<[string, string]>, name: string, what: string): Lookup {
	const lower = name.toLowerCase();
	const values = headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
	if (values.length === 0) return { ok: false, message: `${what} has no header "${name}"` };
	return { ok: true, value: values.join(", ") };
}

/**
 * Reads `{{alias.(request|response).(body|headers|status|messages)...}}` from an http block's
 * finished run; `messages` with the reader `readers` lend for its response's media type.
 */
export function readHttpPath(result: HttpRun, path: AliasPath, readers: ResponseReaders): Lookup {
	const label = `${path.alias}.${path.part}`;
	if (path.section === "rowCount") return { ok: false, message: `block "${path.alias}" is not a db block: rowCount belongs to db results` };
	if (path.part === "request") {
		const req = result.request;
		if (!req) return { ok: false, message: `block "${path.alias}" has no request` };
		if (path.section === "headers") return headerLookup(req.headers, path.selector, label);
		if (path.section === "body") return path.selector === "*" ? { ok: true, value: req.body } : selectJson(req.body, path.selector, `${label}.body`);
		return { ok: false, message: "requests have no status" };
	}
	if (result.state !== "done" && result.state !== "cached") {
		return { ok: false, message: `block "${path.alias}" ended ${result.state}${result.error ? ` (${result.error.message})` : ""}, so it has no response` };
	}
	const head = result.head;
	if (!head) return { ok: false, message: `block "${path.alias}" has no response` };
	switch (path.section) {
		case "status":
			return { ok: true, value: String(head.status) };
		case "headers":
			return headerLookup(head.headers, path.selector, label);
		case "body": {
			const text = bodyText(result);
			return path.selector === "*" ? { ok: true, value: text } : selectJson(text, path.selector, `${label}.body`);
		}
		case "messages": {
			// A response whose body is a stream of messages (`text/event-stream`: docs/streams.md) is read as one.
			const reader = readerOf(readers, head.headers);
			const types = Object.keys(readers).join(", ");
			if (!reader) return { ok: false, message: `${label} is not a stream of messages${types ? ` (${types})` : ""}, so it has no messages` };
			return reader(result.body ?? new Uint8Array(), path.selector, label);
		}
	}
}
