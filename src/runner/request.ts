import type { ClientCertFiles } from "../blocks/client-cert";
import type { HttpMethod } from "../blocks/methods";

/** Default block timeout (docs/blocks.md), milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30000;
/** Response body cap (docs/architecture.md): 100 MB. Above it the run fails with `[body_too_large]`. */
export const MAX_BODY_BYTES = 104857600;
/** Redirects followed at most, unless the block says `# @no-redirect`. */
export const MAX_REDIRECTS = 10;

/**
 * A request ready for the wire: every `{{...}}` reference already resolved.
 * It is what transports send, what the cache keys, and what exporters print.
 */
export interface PreparedRequest {
	method: HttpMethod;
	/** Absolute http(s) URL. */
	url: string;
	/** Header lines in the order written; a name may repeat. */
	headers: Array<[string, string]>;
	/** Body text, sent as UTF-8; "" means no body. With `< file` parts: the text as written, each file as its `< path` line. */
	body: string;
	/** The body's text and `< file` parts, references resolved (absent without file parts): `withFileParts` reads them into `bodyBytes`. */
	fileParts?: FilePart[];
	/** The bytes on the wire when they are not `body` as UTF-8: the body with its `< file` parts read (file-parts.ts). */
	bodyBytes?: Uint8Array;
	/** `# @no-cookie-jar`: the jar neither sends nor stores cookies for this request. */
	noCookieJar?: boolean;
	/** `ClientCert:` (httpyac): the certificate the request presents to its https server, files as written (read into `clientTls` before sending). */
	clientCert?: ClientCertFiles;
	/** `clientCert` read, as the node transport presents it (client-cert-files.ts); only for an https URL. */
	clientTls?: ClientTls;
	/** `# @no-client-cert`: user.toml's `[tls]` gives this request no client certificate. */
	noClientCert?: boolean;
	/** False when the block carries `# @no-redirect`. */
	followRedirects: boolean;
	/** Connect + whole body, milliseconds. */
	timeoutMs: number;
	/**
	 * The request as it may be shown (history, Raw tab, terminal): the parts that came from a
	 * secret variable replaced by `•••`, found by where the secret was substituted (so encoded
	 * forms are masked too). Absent when no secret was used.
	 */
	masked?: MaskedRequest;
}

/** A client certificate's contents: PEM texts, or a PKCS #12 bundle's bytes. */
export interface ClientTls {
	cert?: string;
	key?: string;
	pfx?: Uint8Array;
	passphrase?: string;
}

/** A part of a body with `< file` lines: text as written (resolved), or a file to read. */
export type FilePart = { kind: "text"; text: string } | { kind: "file"; path: string; resolveReferences: boolean; encoding: string | null };

/** A request's shown copy: URL, headers and body with `•••` where secrets were substituted. */
export interface MaskedRequest extends Pick<PreparedRequest, "url" | "headers" | "body"> {
	/** The origin-form request-target (path and query) as shown, for the Raw tab's request line. */
	target: string;
	/** The same request with each secret written back as its reference (`{{token}}`): what a file export writes. */
	withReferences: Pick<PreparedRequest, "url" | "headers" | "body" | "clientCert">;
}

const encoder = new TextEncoder();

/** The bytes a transport sends. */
export function wireBody(request: Pick<PreparedRequest, "body" | "bodyBytes">): Uint8Array {
	return request.bodyBytes ?? encoder.encode(request.body);
}

/** The text that stands for a secret's value wherever a request is shown. */
export const SECRET_MASK = "•••";

/** The request with secrets masked, for display. */
export function shownRequest(request: PreparedRequest): Pick<PreparedRequest, "method" | "url" | "headers" | "body"> {
	const m = request.masked;
	return { method: request.method, url: m?.url ?? request.url, headers: m?.headers ?? request.headers, body: m?.body ?? request.body };
}

/**
 * The request as a file in the vault may hold it: each secret as its `{{reference}}`, never its
 * value (vaults are synced and committed). Requests without secrets are unchanged.
 */
export function requestForFile(request: PreparedRequest): PreparedRequest {
	return request.masked ? { ...request, ...request.masked.withReferences, masked: undefined } : request;
}

/**
 * The request head a transport wrote, with the secret parts masked: the request line's target
 * and each header line whose value came from a secret are replaced by their shown copies (the
 * pieces themselves are known by position, not found by searching for the secret).
 */
export function shownRawHead(head: string, request: PreparedRequest): string {
	const m = request.masked;
	if (!m) return head;
	const lines = head.split("\r\n");
	const real = new URL(request.url);
	const realTarget = real.pathname + real.search;
	if (realTarget !== m.target) lines[0] = lines[0].replace(` ${realTarget} `, ` ${m.target} `);
	request.headers.forEach(([name, value], i) => {
		const shown = m.headers[i];
		if (!shown || shown[1] === value) return;
		const at = lines.indexOf(`${name}: ${value}`);
		if (at > 0) lines[at] = `${shown[0]}: ${shown[1]}`;
	});
	return lines.join("\r\n");
}
