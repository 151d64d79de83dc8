import { checkAssertions, type AliasPath, type AssertionResult, type Lookup } from "../../blocks";
import { selectJson } from "../select-json";
import type { StreamMessage, StreamRun } from "./stream-run";
import { receivedOf } from "./stream-run";
import { sseEventsOf } from "./sse-events";

const INDEXED = /^(-?\d+)(?:\.(event|id|data)(?:\.(\$.*))?)?$/;

/**
 * `messages.<selector>` of a stream's received messages (docs/streams.md): `count`; an index
 * (`0` the first, `-1` the last) for its data; `.data`, `.data.$…` (JSONPath into it), `.event`, `.id`.
 */
export function readMessages(messages: readonly Pick<StreamMessage, "data" | "event" | "id">[], selector: string, label: string): Lookup {
	if (selector === "count") return { ok: true, value: String(messages.length) };
	const m = INDEXED.exec(selector);
	if (!m) return { ok: false, message: `${label}.messages.${selector} is not a message path: use count, or an index such as 0 or -1 with .data, .data.$.x, .event or .id` };
	const index = Number(m[1]);
	const at = index < 0 ? messages.length + index : index;
	const message = messages[at];
	if (!message) return { ok: false, message: `${label}.messages has no message ${index} (${messages.length} received)` };
	const field = m[2] ?? "data";
	if (field === "event" || field === "id") {
		const value = message[field];
		return value === undefined ? { ok: false, message: `message ${index} of ${label} has no ${field}` } : { ok: true, value };
	}
	return m[3] ? selectJson(message.data, m[3], `${label}.messages.${index}.data`) : { ok: true, value: message.data };
}

/** `messages.<selector>` of a whole `text/event-stream` body: an http block's response read as a stream (lent to the http runner). */
export function readEventStreamMessages(body: Uint8Array, selector: string, label: string): Lookup {
	return readMessages(sseEventsOf(body), selector, label);
}

/** Reads `{{alias.response.(status|headers|messages)…}}` from a finished stream: the handshake's response and the messages. */
export function readStreamPath(run: StreamRun, path: AliasPath): Lookup {
	const label = `${path.alias}.${path.part}`;
	if (path.part === "request") return { ok: false, message: `stream block "${path.alias}" has no request to read: use ${path.alias}.response.messages…` };
	if (path.section === "messages") return readMessages(receivedOf(run), path.selector, label);
	const head = run.head;
	if (!head) return { ok: false, message: `block "${path.alias}" ended ${run.state}${run.error ? ` (${run.error.message})` : ""}, so it has no response` };
	if (path.section === "status") return { ok: true, value: String(head.status) };
	if (path.section === "headers") {
		const lower = path.selector.toLowerCase();
		const values = head.headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
		return values.length ? { ok: true, value: values.join(", ") } : { ok: false, message: `${label} has no header "${path.selector}"` };
	}
	return { ok: false, message: `stream block "${path.alias}" has no ${path.section}: read its messages, e.g. ${path.alias}.response.messages.-1.data` };
}

const MESSAGES_SUBJECT = /^messages\.(\S+)(?:[ \t]+(.*))?$/;
const JSON_PATH = /^(\$\S*)[ \t]+(.*)$/;

/**
 * The block's `??` lines checked against a stream: `messages.<selector> op value` (with a JSONPath
 * after `.data` as a word of its own, as `body $.x` is written: `?? messages.-1.data $.n == 3`)
 * reads the messages; `status`, `header` and `duration` read the handshake's response.
 */
export function streamAssertions(lines: ReadonlyArray<{ line: number; text: string }>, run: StreamRun): AssertionResult[] {
	const received = receivedOf(run);
	const head = { status: run.head?.status ?? 0, headers: run.head?.headers ?? [], durationMs: run.timing?.total ?? 0 };
	return lines.map((a) => {
		const m = MESSAGES_SUBJECT.exec(a.text.trim());
		if (!m) return checkAssertions([a], { ...head, body: "" })[0];
		// The subject read by the reference reader, then checked as a body is: one set of operators.
		const [selector, rest = ""] = [m[1], m[2]];
		const value = readMessages(received, selector, "the stream");
		if (!value.ok) return { line: a.line, text: a.text, ok: false, actual: null, message: value.message };
		const path = JSON_PATH.exec(rest);
		const checked = checkAssertions([{ line: a.line, text: path ? `body ${path[1]} ${path[2]}` : `body ${rest}` }], { ...head, body: value.value })[0];
		return { ...checked, text: a.text };
	});
}
