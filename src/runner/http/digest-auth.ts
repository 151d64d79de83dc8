/**
 * `Authorization: Digest user password` (REST Client, httpyac, kulala; also `user:password`):
 * the credentials are not a header to send. The request goes out without them; when the server
 * answers 401 with a `WWW-Authenticate: Digest` challenge, it is sent once more with the
 * response the challenge asks for (RFC 7616: MD5 or SHA-256, `-sess`, qop `auth`).
 */
import { hashes } from "../hashes";
import type { PreparedRequest } from "../request";
import type { SendOptions, Transport, TransportOutcome } from "../transport";

export interface DigestCredentials {
	user: string;
	password: string;
}

const DIGEST = /^[ \t]*digest[ \t]+(\S+?)(?::|[ \t]+)(\S.*?)[ \t]*$/i;

/** The credentials of an `Authorization: Digest user password` header, and the headers without it; null when there is none. */
export function digestCredentials(headers: ReadonlyArray<[string, string]>): { credentials: DigestCredentials; headers: Array<[string, string]> } | null {
	const at = headers.findIndex(([n, v]) => n.toLowerCase() === "authorization" && DIGEST.test(v) && !/\b(response|nonce)=/i.test(v));
	if (at < 0) return null;
	const m = DIGEST.exec(headers[at][1]) as RegExpExecArray;
	return { credentials: { user: m[1], password: m[2] }, headers: headers.filter((_, i) => i !== at) };
}

/** The parameters of a `Digest` challenge (quoted or token values), names lower-cased; null for another scheme. */
export function parseChallenge(value: string): Record<string, string> | null {
	const m = /^[ \t]*digest[ \t]+(.*)$/i.exec(value);
	if (!m) return null;
	const params: Record<string, string> = {};
	for (const p of m[1].matchAll(/([A-Za-z0-9_-]+)[ \t]*=[ \t]*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) params[p[1].toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, "$1") : p[3];
	return params.nonce !== undefined ? params : null;
}

/** The `Authorization` value answering a challenge (RFC 7616 §3.4). `cnonce` is random unless given (tests). */
export function digestAuthorization(challenge: Record<string, string>, credentials: DigestCredentials, method: string, uri: string, cnonce = hashes().bytesToHex(hashes().randomBytes(8)), nc = "00000001"): string | null {
	const algorithm = (challenge.algorithm ?? "MD5").toUpperCase();
	const { bytesToHex, md5, sha256, utf8ToBytes } = hashes();
	const hashOf = algorithm.startsWith("SHA-256") ? sha256 : algorithm.startsWith("MD5") ? md5 : null;
	if (!hashOf) return null;
	const h = (s: string) => bytesToHex(hashOf(utf8ToBytes(s)));
	const realm = challenge.realm ?? "";
	const qops = (challenge.qop ?? "").split(",").map((q) => q.trim());
	const qop = qops.includes("auth") ? "auth" : null;
	if (challenge.qop !== undefined && qop === null) return null; // auth-int only: the body would have to be hashed
	let ha1 = h(`${credentials.user}:${realm}:${credentials.password}`);
	if (algorithm.endsWith("-SESS")) ha1 = h(`${ha1}:${challenge.nonce}:${cnonce}`);
	const ha2 = h(`${method}:${uri}`);
	const response = qop ? h(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${challenge.nonce}:${ha2}`);
	const q = (s: string) => `"${s.replace(/(["\\])/g, "\\$1")}"`;
	return [
		`Digest username=${q(credentials.user)}`,
		`realm=${q(realm)}`,
		`nonce=${q(challenge.nonce)}`,
		`uri=${q(uri)}`,
		`algorithm=${challenge.algorithm ?? "MD5"}`,
		...(qop ? [`qop=${qop}`, `nc=${nc}`, `cnonce=${q(cnonce)}`] : []),
		`response=${q(response)}`,
		...(challenge.opaque !== undefined ? [`opaque=${q(challenge.opaque)}`] : []),
	].join(", ");
}

/**
 * Sends a request carrying Digest credentials: first without them, then (on a Digest challenge)
 * with the answer. The first exchange is not streamed; a response that is not a challenge is
 * handed to the callbacks as it is.
 */
export async function sendWithDigest(transport: Transport, request: PreparedRequest, opts: SendOptions): Promise<TransportOutcome> {
	const found = digestCredentials(request.headers);
	if (!found) return transport.send(request, opts);
	const first: PreparedRequest = { ...request, headers: found.headers };
	const outcome = await transport.send(first, { signal: opts.signal, maxBodyBytes: opts.maxBodyBytes, cookies: opts.cookies });
	const challenge = outcome.kind === "done" && outcome.head.status === 401 ? outcome.head.headers.filter(([n]) => n.toLowerCase() === "www-authenticate").map(([, v]) => parseChallenge(v)).find((c) => c !== null) : undefined;
	if (outcome.kind === "done" && challenge) {
		const url = new URL(outcome.head.url || request.url);
		const answer = digestAuthorization(challenge, found.credentials, request.method, url.pathname + url.search);
		if (answer) {
			// The challenge's cookies go back with the answer (httpbin's digest-auth checks one): through the jar, or here without one.
			const cookies = outcome.head.headers.filter(([n]) => n.toLowerCase() === "set-cookie").map(([, v]) => v.split(";")[0].trim());
			const cookie = cookies.length > 0 && !opts.cookies && !found.headers.some(([n]) => n.toLowerCase() === "cookie") ? [["Cookie", cookies.join("; ")] as [string, string]] : [];
			return transport.send({ ...first, headers: [...found.headers, ...cookie, ["Authorization", answer]] }, opts);
		}
	}
	if (outcome.kind === "done") {
		opts.onHeaders?.(outcome.head);
		if (outcome.body.byteLength > 0) opts.onChunk?.(outcome.body, outcome.body.byteLength);
	}
	return outcome;
}
