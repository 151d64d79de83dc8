/**
 * httpyac's `Authorization: AWS <key> <secret> [token:<session token>] [region:<region>]
 * [service:<service>]`, read. Its own module so that a run can tell a request to sign without
 * requiring the signer (`aws-sigv4.ts`, a text module) for every request that has no such header.
 */

export interface AwsCredentials {
	accessKeyId: string;
	secretAccessKey: string;
	sessionToken?: string;
	region?: string;
	service?: string;
}

const AWS_FORM = /^[ \t]*AWS[ \t]+(\S+)[ \t]+(\S+)((?:[ \t]+(?:token|region|service):\S*)*)[ \t]*$/;

/** The credentials of an `Authorization: AWS …` value; null for any other value. */
export function parseAwsAuthorization(value: string): AwsCredentials | null {
	const m = AWS_FORM.exec(value);
	if (!m) return null;
	const options = Object.fromEntries(m[3].trim().split(/[ \t]+/).filter(Boolean).map((o) => [o.slice(0, o.indexOf(":")), o.slice(o.indexOf(":") + 1)]));
	return { accessKeyId: m[1], secretAccessKey: m[2], ...(options.token ? { sessionToken: options.token } : {}), ...(options.region ? { region: options.region } : {}), ...(options.service ? { service: options.service } : {}) };
}

/** Where the headers carry `Authorization: AWS …` (the request is to be signed), or -1. */
export function awsAuthorizationAt(headers: ReadonlyArray<readonly [string, string]>): number {
	return headers.findIndex(([n, v]) => n.toLowerCase() === "authorization" && AWS_FORM.test(v));
}
