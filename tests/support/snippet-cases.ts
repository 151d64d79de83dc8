/** The request table of the export equivalence suites, and how recorded requests are compared. */
import type { RecordedRequest } from "./servers";

/** [name, block text]: `{{base}}` is the recording server; `login` is an alias with a cached result. */
export const CASES: Array<[string, string]> = [
	["GET", "GET {{base}}/echo"],
	["query with spaces", "GET {{base}}/echo?q=hello world&x=1"],
	["query with unicode", "GET {{base}}/echo?name=Zoë&city=São Paulo"],
	["query with +", "GET {{base}}/echo?a=1+2&b=c%2Bd"],
	["query with & and = in values", "GET {{base}}/echo?expr=a%3Db%26c&eq==x"],
	["query with #", "GET {{base}}/echo?tag=%23one&h=a%23"],
	["HEAD", "HEAD {{base}}/echo"],
	["OPTIONS", "OPTIONS {{base}}/echo"],
	["DELETE", "DELETE {{base}}/echo/7"],
	["POST JSON", 'POST {{base}}/echo\nContent-Type: application/json\n\n{\n  "title": "Dune",\n  "tags": ["a", "b"]\n}'],
	["PUT form", "PUT {{base}}/echo\nContent-Type: application/x-www-form-urlencoded\n\na=1&b=two+words&c=%26"],
	["PATCH XML", 'PATCH {{base}}/echo\nContent-Type: application/xml\n\n<?xml version="1.0"?>\n<book id="1"><title>Dune &amp; more</title></book>'],
	["body with quotes", "POST {{base}}/echo\nContent-Type: text/plain\n\nit's \"quoted\" and 'single'"],
	["body with backslashes", "POST {{base}}/echo\nContent-Type: text/plain\n\nC:\\path\\to\\file \\n not a newline \\\\"],
	["body with %", "POST {{base}}/echo\nContent-Type: text/plain\n\n100% sure %20 %s %%"],
	["body with trailing newlines", "POST {{base}}/echo\nContent-Type: text/plain\n\nline one\nline two\n\n"],
	["body with unicode", "POST {{base}}/echo\nContent-Type: text/plain; charset=utf-8\n\nZoë 😀 naïve — ü"],
	["body with $ and backticks", "POST {{base}}/echo\nContent-Type: text/plain\n\n$HOME `whoami` $(id) !! ${x}"],
	["body starting with @", "POST {{base}}/echo\nContent-Type: text/plain\n\n@not-a-file"],
	["body without Content-Type", "POST {{base}}/echo\n\nraw=body&no=type"],
	["repeated headers", "GET {{base}}/echo\nX-Multi: a\nX-Multi: b\nx-multi: c"],
	["header with quotes", "GET {{base}}/echo\nX-Quote: say \"hi\" 'there'"],
	["header with $ and backticks", "GET {{base}}/echo\nX-Shell: $HOME `whoami` $(id)"],
	["header with !", "GET {{base}}/echo\nX-Bang: hello!world!!"],
	["header with empty value", "GET {{base}}/echo\nX-Empty:\nX-After: 1"],
	["environment variables", 'POST {{base}}/echo?user={{user}}\nAuthorization: Bearer {{secret}}\nContent-Type: application/json\n\n{"user": "{{user}}", "note": "{{weird}}"}'],
	["alias references", "GET {{base}}/echo?token={{login.response.body.$.token}}\nAuthorization: Bearer {{login.response.body.$.token}}\nX-Id: {{login.response.body.$.items[0].id}}"],
	["asks for gzip", "GET {{base}}/echo\nAccept-Encoding: gzip"],
];

/**
 * Headers a tool adds on its own when the block did not write them. They are the only
 * allowed differences; everything else (names case-insensitively, values exactly, repeats)
 * must match.
 */
export const TOOL_ADDED = new Set(["user-agent", "accept", "accept-encoding", "connection", "host", "content-length", "accept-language", "sec-fetch-mode"]);

/** The comparable view of a request: tool-added headers left out unless the block wrote them. */
export function comparable(r: RecordedRequest, written: ReadonlySet<string>, joinRepeats: boolean) {
	const headers = r.headers.map(([n, v]) => [n.toLowerCase(), v] as [string, string]).filter(([n]) => written.has(n) || !TOOL_ADDED.has(n));
	const grouped = new Map<string, string[]>();
	for (const [n, v] of headers) grouped.set(n, [...(grouped.get(n) ?? []), v]);
	const normalised = [...grouped.entries()].map(([n, vs]) => (joinRepeats ? [n, [vs.join(", ")]] : [n, vs])).sort(([a], [b]) => String(a).localeCompare(String(b)));
	return { method: r.method, url: r.url, headers: normalised, body: r.body.toString("base64") };
}
