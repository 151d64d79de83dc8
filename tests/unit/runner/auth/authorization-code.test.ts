import { createHash } from "node:crypto";
import { authorizationCodeGrant } from "../../../../src/runner/auth/authorization-code";
import { listenLoopback } from "../../../../src/runner/auth/loopback-redirect";
import type { OAuthAuth } from "../../../../src/runner/auth/oauth-grants";
import type { SignInHost, SignInPrompt } from "../../../../src/runner/auth/sign-in";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { transportFetch } from "../../../../src/runner/auth/transport-fetch";
import { httpGet, startOAuthEndpoints, tokenAnswer, type OAuthEndpoints } from "../../../support/oauth-endpoints";

let server: OAuthEndpoints;
beforeAll(async () => {
	server = await startOAuthEndpoints(() => tokenAnswer("at-1", { refresh_token: "rt-1" }));
});
const transport = createNodeTransport();
afterAll(async () => {
	transport.close();
	await server.close();
});
beforeEach(() => (server.asked.length = 0));

const auth = (config: Partial<OAuthAuth["config"]> = {}): OAuthAuth => ({
	name: "web",
	config: { type: "oauth2", grant: "authorization_code", authUrl: "https://id.example.com/authorize", tokenUrl: `${server.base}/token`, clientId: "notes", scope: "openid api", pkce: true, persist: false, ...config },
	secrets: {},
	unset: [],
});

const PAGES = { received: "ok", refused: "no" };
const deps = { fetch: transportFetch(transport), now: () => 1_000 };

/** A host whose browser goes straight back to the redirect with a code and the state it was given. */
function host(back: (sent: URLSearchParams) => Record<string, string> = (sent) => ({ code: "the-code", state: sent.get("state") ?? "" })) {
	const prompts: SignInPrompt[] = [];
	let closed = 0;
	const h: SignInHost = {
		prompt(p) {
			prompts.push(p);
			if (p.kind === "browser") {
				const sent = new URL(p.url).searchParams;
				void httpGet(`${sent.get("redirect_uri")}?${new URLSearchParams(back(sent))}`);
			}
			return () => closed++;
		},
		listen: (uri) => listenLoopback(uri, PAGES),
		wait: (_ms, signal) => new Promise((r) => signal.addEventListener("abort", () => r(), { once: true })),
	};
	return { h, prompts, closed: () => closed };
}

const sentOf = (prompts: SignInPrompt[]) => new URL((prompts[0] as { url: string }).url).searchParams;

describe("authorizationCodeGrant", () => {
	it("sends an S256 challenge and a state, and exchanges the code with the verifier and the same redirect URI", async () => {
		const t = host();
		const outcome = await authorizationCodeGrant(auth(), deps, t.h);
		expect(outcome.ok && [outcome.tokens.accessToken, outcome.tokens.refreshToken]).toEqual(["at-1", "rt-1"]);
		const sent = sentOf(t.prompts);
		expect([...sent.keys()]).toEqual(["client_id", "redirect_uri", "response_type", "state", "scope", "code_challenge", "code_challenge_method"]);
		expect(Object.fromEntries(sent)).toMatchObject({ client_id: "notes", response_type: "code", scope: "openid api", code_challenge_method: "S256" });
		expect(sent.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		expect(sent.get("state")).toMatch(/^[\w-]{43}$/);
		const form = server.asked[0].form;
		expect(form).toMatchObject({ grant_type: "authorization_code", code: "the-code", redirect_uri: sent.get("redirect_uri"), client_id: "notes" });
		expect(createHash("sha256").update(form.code_verifier).digest("base64url")).toBe(sent.get("code_challenge"));
		expect(t.closed()).toBe(1);
	});

	it("asks for the audience and every resource in the sign-in, and for the resources again with the code (RFC 8707 §2)", async () => {
		const t = host();
		expect((await authorizationCodeGrant(auth({ audience: "https://api.example.com", resource: ["https://a.example.com", "https://b.example.com"] }), deps, t.h)).ok).toBe(true);
		const sent = sentOf(t.prompts);
		expect([sent.get("audience"), sent.getAll("resource")]).toEqual(["https://api.example.com", ["https://a.example.com", "https://b.example.com"]]);
		expect(server.asked[0].fields.filter(([k]) => k === "resource" || k === "audience")).toEqual([
			["resource", "https://a.example.com"],
			["resource", "https://b.example.com"],
		]);
	});

	it("sends no challenge and no verifier with pkce = false", async () => {
		const t = host();
		expect((await authorizationCodeGrant(auth({ pkce: false }), deps, t.h)).ok).toBe(true);
		expect(sentOf(t.prompts).has("code_challenge")).toBe(false);
		expect(server.asked[0].form.code_verifier).toBeUndefined();
	});

	it("refuses a return with another state and asks the provider nothing", async () => {
		const t = host(() => ({ code: "forged", state: "other" }));
		const outcome = await authorizationCodeGrant(auth(), deps, t.h);
		expect(!outcome.ok && outcome.problem.reason).toBe("the browser returned with another sign-in's state (a stale or forged redirect)");
		expect(server.asked).toEqual([]);
	});

	it("reads the provider's error from the redirect", async () => {
		const t = host((sent) => ({ error: "access_denied", error_description: "no", state: sent.get("state") ?? "" }));
		const outcome = await authorizationCodeGrant(auth(), deps, t.h);
		expect(outcome).toEqual({ ok: false, problem: { step: "authorization", reason: "consent was denied (access_denied: no)", hint: "Run the block again and allow access" } });
	});

	it("says where it cannot receive the redirect (mobile)", async () => {
		const t = host();
		const outcome = await authorizationCodeGrant(auth(), deps, { ...t.h, listen: undefined });
		expect(outcome).toEqual({ ok: false, problem: { step: "authorization", reason: "the browser sign-in needs a loopback redirect, which only the desktop app and the CLI can receive", hint: 'Use grant = "device_code" here' } });
	});

	it("names the redirect URI it could not listen on", async () => {
		const taken = await listenLoopback("http://127.0.0.1/callback", PAGES);
		try {
			const t = host();
			const outcome = await authorizationCodeGrant(auth({ redirectUri: taken.redirectUri }), deps, t.h);
			if (outcome.ok) throw new Error("expected a failure");
			expect(outcome.problem.hint).toBe("Free that port, or set another redirect_uri");
			expect(outcome.problem.reason.startsWith(`could not listen on ${taken.redirectUri} (`)).toBe(true);
			expect(outcome.problem.reason).toContain("EADDRINUSE");
		} finally {
			taken.close();
		}
	});

	it("names the key to set when there is no authorization endpoint", async () => {
		const t = host();
		expect(await authorizationCodeGrant(auth({ authUrl: undefined }), deps, t.h)).toEqual({ ok: false, problem: { step: "configuration", reason: "no authorization endpoint", hint: "Set auth_url, or an issuer whose discovery names one" } });
	});
});
