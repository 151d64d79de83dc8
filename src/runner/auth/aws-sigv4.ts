/**
 * AWS Signature Version 4, signed by `aws4` (a well-kept signer; we compute no HMAC chain here).
 * httpyac's form `Authorization: AWS <key> <secret> [token:<session token>] [region:<region>]
 * [service:<service>]` is not a header to send: the request is signed with those credentials
 * and goes out with the signature's `Authorization` and `X-Amz-Date` (and
 * `X-Amz-Security-Token`) instead. An aws-sigv4 configuration's `{{$auth.token("name")}}`
 * writes that form, so both ways sign alike. Region and service, when not given, are read from
 * an `*.amazonaws.com` host, as aws4 does.
 */
import type { ResolvedAuth } from "../../settings/auth-config";
import { wireBody, type PreparedRequest } from "../request";
import { authError, unsetSecret } from "./auth-failures";
import type { RunError } from "../result";
import { aws4Library } from "./libraries";
import { hashes } from "../hashes";
import { awsAuthorizationAt, parseAwsAuthorization, type AwsCredentials } from "./aws-form";

/** An aws-sigv4 configuration written in httpyac's form (what its `$auth.token` stands for). */
export function awsAuthorization(auth: ResolvedAuth): { ok: true; value: string } | { ok: false; reason: string } {
	const c = auth.config;
	if (c.type !== "aws-sigv4") return { ok: false, reason: `"${auth.name}" is not an aws-sigv4 configuration` };
	if (auth.unset.length > 0) {
		const problem = unsetSecret(auth.unset[0]);
		return { ok: false, reason: `auth "${auth.name}": ${problem.reason}. ${problem.hint ?? ""}` };
	}
	const token = auth.secrets.session_token;
	return { ok: true, value: `AWS ${c.accessKeyId} ${auth.secrets.secret_access_key} ${token ? `token:${token} ` : ""}region:${c.region} service:${c.service}` };
}

/** `20150830T123600Z`: the form of X-Amz-Date. */
export const amzDate = (epochMs: number): string => new Date(epochMs).toISOString().replace(/[:-]|\.\d{3}/g, "");

/**
 * The request signed, when it carries `Authorization: AWS …`; as it is otherwise. The headers
 * written stay as written; the transport adds Host and Content-Length with the values signed.
 */
export function signAwsRequest(request: PreparedRequest, now: number, configName = "AWS"): { ok: true; request: PreparedRequest } | { ok: false; error: RunError } {
	const at = awsAuthorizationAt(request.headers);
	if (at < 0) return { ok: true, request };
	const credentials = parseAwsAuthorization(request.headers[at][1]) as AwsCredentials;
	const url = new URL(request.url);
	const headers = request.headers.filter((_, i) => i !== at);
	const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
	if (!has("x-amz-date")) headers.push(["X-Amz-Date", amzDate(now)]);
	if (credentials.sessionToken && !has("x-amz-security-token")) headers.push(["X-Amz-Security-Token", credentials.sessionToken]);
	let aws4: ReturnType<typeof aws4Library>;
	try {
		aws4 = aws4Library();
	} catch (e) {
		// aws4 needs Node's crypto: the desktop app and the CLI have it, mobile does not.
		return { ok: false, error: authError(configName, { step: "signing", reason: `the signer cannot load here (${e instanceof Error ? e.message : String(e)})`, hint: "Signing needs the desktop app or the CLI" }) };
	}
	const body = wireBody(request);
	if (credentials.service === "s3" && !has("x-amz-content-sha256")) headers.push(["X-Amz-Content-Sha256", hashes().bytesToHex(hashes().sha256(body))]);
	// One value per name, as SigV4 canonicalises repeated headers (joined by commas).
	const byName: Record<string, string> = {};
	for (const [n, v] of headers) byName[n] = byName[n] === undefined ? v : `${byName[n]},${v}`;
	const signer = new aws4.RequestSigner(
		{ host: url.host, path: url.pathname + url.search, method: request.method, headers: byName, body: body.byteLength > 0 ? Buffer.from(body) : undefined, doNotModifyHeaders: true, ...(credentials.region ? { region: credentials.region } : {}), ...(credentials.service ? { service: credentials.service } : {}) },
		{ accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}) },
	);
	// With the headers left as written, aws4 would take its own clock for the credential scope: the date sent is the date signed.
	(signer as unknown as { datetime: string }).datetime = headers.find(([n]) => n.toLowerCase() === "x-amz-date")?.[1] ?? amzDate(now);
	const signed = signer.sign();
	const authorization = String((signed.headers as Record<string, string>).Authorization);
	return { ok: true, request: { ...request, headers: [...headers, ["Authorization", authorization]], ...(request.masked ? { masked: { ...request.masked, headers: maskedHeaders(request.masked.headers, headers) } } : {}) } };
}

/** The shown headers after signing: the written ones as they were shown, the added date and token, the signature hidden. */
function maskedHeaders(shown: ReadonlyArray<[string, string]>, sent: ReadonlyArray<[string, string]>): Array<[string, string]> {
	const kept = shown.filter(([n]) => n.toLowerCase() !== "authorization");
	const added = sent.slice(kept.length).map(([n, v]): [string, string] => [n, n.toLowerCase() === "x-amz-security-token" ? "•••" : v]);
	return [...kept, ...added, ["Authorization", "AWS4-HMAC-SHA256 •••"]];
}
