/**
 * What the Auth tab says about a kept token (docs/auth.md#the-auth-tab): its decoded JWT header
 * and claims, and its expiry against a given clock. Pure but for jose, which is required on the
 * first decode; nothing here verifies a signature: the tab shows what the token says of itself.
 */
import { joseLibrary } from "./libraries";

export type DecodedToken = { kind: "jwt"; header: Record<string, unknown>; claims: Record<string, unknown> } | { kind: "opaque" };

/** A JWT's protected header and claims; `opaque` for any other token (a reference token, a JWE). Never throws. */
export function decodeToken(token: string): DecodedToken {
	const jose = joseLibrary();
	try {
		return { kind: "jwt", header: { ...jose.decodeProtectedHeader(token) }, claims: { ...jose.decodeJwt(token) } };
	} catch {
		return { kind: "opaque" };
	}
}

/** `minutes`: whole minutes left, rounded up, so a token is "in 1 min" until it has expired. */
export type Expiry = { kind: "unknown" } | { kind: "valid"; at: number; minutes: number } | { kind: "expired"; at: number };

/** When the token expires (epoch ms; absent when the provider did not say), seen at `now`. */
export function expiryOf(expiresAt: number | undefined, now: number): Expiry {
	if (expiresAt === undefined) return { kind: "unknown" };
	if (expiresAt <= now) return { kind: "expired", at: expiresAt };
	return { kind: "valid", at: expiresAt, minutes: Math.ceil((expiresAt - now) / 60_000) };
}

/** One claim as a row: its value as text, and for a time claim the instant it names (epoch ms). */
export interface ClaimRow {
	name: string;
	value: string;
	at?: number;
}

/** The registered and OpenID claims that are NumericDate values: seconds since the epoch (RFC 7519 §2). */
const TIME_CLAIMS = new Set(["exp", "iat", "nbf", "auth_time", "updated_at"]);

/** The claims (or header parameters) in the token's order: text as written, anything else as JSON. */
export function claimRows(claims: Readonly<Record<string, unknown>>): ClaimRow[] {
	return Object.entries(claims).map(([name, value]) => {
		const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
		const isTime = TIME_CLAIMS.has(name) && typeof value === "number" && Number.isFinite(value);
		return isTime ? { name, value: text, at: value * 1000 } : { name, value: text };
	});
}
