/**
 * What the peers do to a request between its text and the wire, once references are resolved
 * (docs/blocks.md, `.http` compatibility). Pure functions; the runner calls `shapeRequest`.
 */
import { takeClientCert, type ClientCertFiles } from "./client-cert";
import type { GraphqlBody } from "./http";
import { wireMethod, type HttpMethod } from "./methods";

export interface ShapedRequest {
	method: HttpMethod;
	url: string;
	headers: Array<[string, string]>;
	body: string;
}

export type Shaping = { ok: true; request: ShapedRequest; clientCert: ClientCertFiles | null } | { ok: false; code: "invalid_block"; message: string };

/**
 * Origin-form `/path` completed from the `Host:` header (JetBrains, RFC 9112 §3.2.1) or, without
 * one, from a `host` variable (httpyac: "host … used as prefix for urls starting with /").
 * A Host ending in `:443` means https.
 */
export function completeUrl(url: string, headers: ReadonlyArray<[string, string]>, hostVariable: string | undefined): string {
	if (!url.startsWith("/") || url.startsWith("//")) return url;
	const host = headers.find(([n]) => n.toLowerCase() === "host")?.[1].trim();
	if (host) return /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? `${host.replace(/\/+$/, "")}${url}` : `${/:443$/.test(host) ? "https" : "http"}://${host}${url}`;
	if (hostVariable) return `${hostVariable.trim().replace(/\/+$/, "")}${url}`;
	return url;
}

/**
 * `Authorization: Basic user:pass` or `Basic user pass` (JetBrains, REST Client, httpyac) is
 * sent base64-encoded; a value that is one token without `:` is taken as already encoded.
 */
export function basicAuth(value: string): string {
	const m = /^[ \t]*basic[ \t]+(.+)$/i.exec(value);
	if (!m) return value;
	const credentials = m[1].trim();
	const space = /^(\S+)[ \t]+(.+)$/.exec(credentials);
	const pair = space ? `${space[1]}:${space[2]}` : credentials.includes(":") ? credentials : null;
	if (pair === null) return value;
	return `Basic ${base64(new TextEncoder().encode(pair))}`;
}

function base64(bytes: Uint8Array): string {
	let s = "";
	for (const b of bytes) s += String.fromCharCode(b);
	return btoa(s);
}

/**
 * The GraphQL JSON body, in httpyac's and kulala's key order: query, operationName (when the
 * query names one), variables (when written). Variables must be JSON.
 */
export function graphqlJson(g: GraphqlBody, variables: string | null): { ok: true; body: string } | { ok: false; message: string } {
	const out: Record<string, unknown> = { query: g.query };
	if (g.operationName) out.operationName = g.operationName;
	if (variables !== null && variables.trim() !== "") {
		try {
			out.variables = JSON.parse(variables) as unknown;
		} catch (e) {
			return { ok: false, message: `GraphQL variables are not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
		}
	}
	return { ok: true, body: JSON.stringify(out) };
}

/** Multipart bodies go out with CRLF framing (RFC 2046 §5.1.1), whatever the note's line breaks. */
export function multipartCrlf(headers: ReadonlyArray<[string, string]>, body: string): string {
	const type = headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ?? "";
	return /^[ \t]*multipart\//i.test(type) ? body.replace(/\r?\n/g, "\r\n") : body;
}

/**
 * REST Client, httpyac and kulala join an `application/x-www-form-urlencoded` body written across
 * lines (`a=1` / `&b=2`, or `a=1&` / `b=2`): its line breaks are not part of it. httpyac then
 * percent-encodes what a URL cannot hold (`New York` → `New%20York`), leaving `%XX` as written.
 */
export function formBody(headers: ReadonlyArray<[string, string]>, body: string): string {
	const type = headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ?? "";
	return /^[ \t]*application\/x-www-form-urlencoded/i.test(type) ? encodeForm(body.replace(/[ \t]*\r?\n[ \t]*/g, "")) : body;
}

/**
 * Characters a URL does not allow, and a `%` that starts no `%XX`, percent-encoded as UTF-8; the
 * rest (`= & + : / ? [ ]`, and escapes already written) kept. httpyac's rule (its
 * `encodeRequestBody` applies the `encodeurl` package to form bodies); lone surrogates become U+FFFD.
 */
export function encodeForm(text: string): string {
	const wellFormed = text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
	return wellFormed.replace(/(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]|%(?:[^0-9A-Fa-f]|[0-9A-Fa-f][^0-9A-Fa-f]|$))+/g, (run) => encodeURI(run));
}

/** The resolved request as the peers send it. */
export function shapeRequest(
	req: ShapedRequest,
	opts: { hostVariable?: string; graphql: GraphqlBody | null; graphqlVariables: string | null },
): Shaping {
	// httpyac's `ClientCert:` names the request's certificate and is never sent (client-cert.ts).
	const taken = takeClientCert(req.headers);
	if (!taken.ok) return { ok: false, code: "invalid_block", message: taken.message };
	let headers = taken.headers.map(([n, v]): [string, string] => [n, n.toLowerCase() === "authorization" ? basicAuth(v) : v]);
	let body = req.body;
	if (opts.graphql) {
		const json = graphqlJson(opts.graphql, opts.graphqlVariables);
		if (!json.ok) return { ok: false, code: "invalid_block", message: json.message };
		body = json.body;
		if (!headers.some(([n]) => n.toLowerCase() === "content-type")) headers = [...headers, ["Content-Type", "application/json"]];
	} else {
		body = formBody(headers, multipartCrlf(headers, body));
	}
	return { ok: true, request: { method: wireMethod(req.method), url: completeUrl(req.url, headers, opts.hostVariable), headers, body }, clientCert: taken.clientCert };
}
