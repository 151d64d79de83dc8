import { isHttpToken } from "../../blocks";

/**
 * The request head as HTTP/1.1 puts it on the wire, for the Raw tab and for `requestBytes`:
 * request line, one `Name: value` line per header (order, casing and repeats kept), blank line.
 * Shared by the transports so every one of them shows the same shape.
 */
export function formatRequestHead(method: string, target: string, headers: ReadonlyArray<readonly [string, string]>): string {
	let text = `${method} ${target} HTTP/1.1\r\n`;
	for (const [name, value] of headers) text += `${name}: ${value}\r\n`;
	return `${text}\r\n`;
}

/** The request-target of an origin-form request line: path plus query. */
export function requestTarget(url: URL): string {
	return url.pathname + url.search;
}

/**
 * Why a request's headers cannot go on the wire (a name that is not an HTTP token, or a value
 * with a line break that would split the head), as the detail of "Invalid HTTP token"; null
 * when every header is sendable.
 */
export function invalidHeader(headers: ReadonlyArray<readonly [string, string]>): string | null {
	for (const [name, value] of headers) {
		if (!isHttpToken(name)) return `header name "${name}"`;
		if (/[\r\n\0]/.test(value)) return `header "${name}" value contains a line break`;
	}
	return null;
}
