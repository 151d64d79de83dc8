import { authError, problemOf, unsetSecret, type AuthStep } from "../../../../src/runner/auth/auth-failures";
import { AuthNetworkError } from "../../../../src/runner/auth/transport-fetch";

const URL_ = "http://idp/token";

/** What oauth4webapi throws for a JSON error answer: the RFC 6749 fields on the error. */
const oauthError = (error: string, error_description?: string) => Object.assign(new Error("server responded with an error"), { error, ...(error_description ? { error_description } : {}) });

describe("authError", () => {
	it("names the configuration and the step in one line, with the hint after the reason", () => {
		expect(authError("kc", { step: "token request", reason: "the provider said no", hint: "Check scope" })).toEqual({ code: "auth_failed", message: 'Auth "kc", token request: the provider said no. Check scope' });
	});

	it("ends at the reason when there is no hint", () => {
		expect(authError("kc", { step: "discovery", reason: "gone" }).message).toBe('Auth "kc", discovery: gone');
	});
});

describe("unsetSecret", () => {
	it("is a configuration problem naming the secret, saying where to give it", () => {
		expect(unsetSecret("kc-secret")).toMatchObject({ step: "configuration", reason: 'secret "kc-secret" is not set', hint: expect.stringContaining("RUNNABLE_BLOCKS_SECRET_") as unknown });
	});
});

describe("problemOf", () => {
	it.each<[string, AuthStep, string, string | undefined]>([
		["invalid_client", "token request", "the provider refused the client (invalid_client: bad secret)", "Check client_id and the client_secret secret"],
		["unauthorized_client", "token request", "the provider refused the client (unauthorized_client: bad secret)", "Check client_id and the client_secret secret"],
		["invalid_grant", "refresh", "the refresh token was refused (invalid_grant: bad secret)", "Sign in again: run the block again (the refused tokens were dropped)"],
		["invalid_grant", "token request", "the provider refused the grant (invalid_grant: bad secret)", "Check the username and password"],
		["access_denied", "authorization", "consent was denied (access_denied: bad secret)", "Run the block again and allow access"],
		["expired_token", "device authorization", "the device code expired before it was confirmed (expired_token: bad secret)", "Run the block again and confirm the new code in time"],
		["invalid_scope", "token request", "the provider refused the scope (invalid_scope: bad secret)", "Check scope"],
		["temporarily_unavailable", "token request", "the provider said temporarily_unavailable: bad secret", undefined],
	])("reads OAuth error %s at %s with its advice", (code, step, reason, hint) => {
		expect(problemOf(step, oauthError(code, "bad secret"), URL_)).toEqual({ step, reason, ...(hint ? { hint } : {}) });
	});

	it("leaves the description out when the provider gave none", () => {
		expect(problemOf("token request", oauthError("invalid_scope"), URL_).reason).toBe("the provider refused the scope (invalid_scope)");
	});

	it("reads the OAuth error of a 401's WWW-Authenticate challenge", () => {
		const challenge = Object.assign(new Error("challenge"), { code: "OAUTH_WWW_AUTHENTICATE_CHALLENGE", cause: [{ scheme: "basic", parameters: { realm: "x" } }, { scheme: "bearer", parameters: { error: "invalid_client", error_description: "who?" } }] });
		expect(problemOf("token request", challenge, URL_)).toMatchObject({ reason: "the provider refused the client (invalid_client: who?)" });
	});

	it("says the provider could not be reached, with the network's words", () => {
		expect(problemOf("discovery", new AuthNetworkError("Failed to connect: ECONNREFUSED"), "http://idp")).toEqual({ step: "discovery", reason: "could not reach http://idp (Failed to connect: ECONNREFUSED)", hint: "Check the URL and that the identity provider is running" });
	});

	it.each<[AuthStep, string]>([
		["discovery", "Check issuer"],
		["token request", "Check the endpoint URL"],
	])("names a non-OAuth answer's status at %s, with %j", (step, hint) => {
		const refused = Object.assign(new Error("unexpected response"), { cause: new Response("<html/>", { status: 404 }) });
		expect(problemOf(step, refused, URL_)).toEqual({ step, reason: `${URL_} answered HTTP 404, not an OAuth response`, hint });
	});

	it("falls back to the thrown error's message, or its text", () => {
		expect(problemOf("signing", new Error("boom"), URL_)).toEqual({ step: "signing", reason: "boom" });
		expect(problemOf("signing", "plain", URL_)).toEqual({ step: "signing", reason: "plain" });
	});
});
