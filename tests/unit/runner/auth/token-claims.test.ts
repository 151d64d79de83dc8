import { SignJWT } from "jose";
import { claimRows, decodeToken, expiryOf } from "../../../../src/runner/auth/token-claims";

const key = new TextEncoder().encode("a-test-key-of-at-least-32-bytes!!");

describe("decodeToken: a JWT's header and claims, unverified; anything else is opaque", () => {
	it("reads the protected header and the claims of a signed JWT", async () => {
		const jwt = await new SignJWT({ sub: "alice", scope: "api" }).setProtectedHeader({ alg: "HS256", kid: "k1" }).setIssuedAt(1_700_000_000).setExpirationTime(1_700_003_600).sign(key);
		expect(decodeToken(jwt)).toEqual({ kind: "jwt", header: { alg: "HS256", kid: "k1" }, claims: { sub: "alice", scope: "api", iat: 1_700_000_000, exp: 1_700_003_600 } });
	});

	it.each([
		["a reference token", "2YotnFZFEjr1zCsicMWpAA"],
		["three parts that are not base64url JSON", "a.b.c"],
		["an empty token", ""],
	])("%s is opaque", (_what, token) => expect(decodeToken(token)).toEqual({ kind: "opaque" }));
});

describe("expiryOf: the expiry on the given clock, in whole minutes rounded up", () => {
	const now = 1_000_000_000;
	it.each([
		["an hour left", now + 3_600_000, { kind: "valid", at: now + 3_600_000, minutes: 60 }],
		["a second left is still a minute", now + 1_000, { kind: "valid", at: now + 1_000, minutes: 1 }],
		["90 s left", now + 90_000, { kind: "valid", at: now + 90_000, minutes: 2 }],
		["exactly now", now, { kind: "expired", at: now }],
		["a minute ago", now - 60_000, { kind: "expired", at: now - 60_000 }],
		["not said by the provider", undefined, { kind: "unknown" }],
	])("%s", (_what, expiresAt, expected) => expect(expiryOf(expiresAt, now)).toEqual(expected));
});

describe("claimRows: one row per claim, in the token's order", () => {
	it("keeps text as written, writes other values as JSON and gives time claims their instant", () => {
		expect(claimRows({ sub: "alice", exp: 1_700_003_600, aud: ["api", "web"], email_verified: true, address: { country: "PT" }, iat: "soon" })).toEqual([
			{ name: "sub", value: "alice" },
			{ name: "exp", value: "1700003600", at: 1_700_003_600_000 },
			{ name: "aud", value: '["api","web"]' },
			{ name: "email_verified", value: "true" },
			{ name: "address", value: '{"country":"PT"}' },
			// A time claim that is not a number is shown as written, with no instant.
			{ name: "iat", value: "soon" },
		]);
	});
});
