import type { OAuth2Config, ResolvedAuth } from "../../../../src/settings/auth-config";
import { AuthTokens, type EnsureOptions, type InteractiveGrants } from "../../../../src/runner/auth/auth-tokens";
import type { TokenSet } from "../../../../src/runner/auth/token-set";
import type { TokenStore } from "../../../../src/runner/auth/token-store";

const TOKEN_URL = "http://127.0.0.1:9/token";

function oauth(grant: OAuth2Config["grant"], extra: Partial<ResolvedAuth> = {}): ResolvedAuth {
	return { name: "kc", config: { type: "oauth2", grant, tokenUrl: TOKEN_URL, clientId: "app", pkce: true, persist: false }, secrets: { client_secret: "s" }, unset: [], ...extra };
}

/** A token endpoint as a fetch: answers each request with the next reply, and records the grant asked for. */
function tokenEndpoint(...replies: Array<{ status?: number; body: Record<string, unknown> }>) {
	const grants: string[] = [];
	const fetch: EnsureOptions["fetch"] = (_url, init) => {
		grants.push(new URLSearchParams(init.body as URLSearchParams).get("grant_type") ?? "");
		const reply = replies.shift();
		if (!reply) throw new Error("the token endpoint was asked more often than the test expected");
		return Promise.resolve(new Response(JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { "Content-Type": "application/json" } }));
	};
	return { fetch, grants };
}

const issued = (access: string, extra: Record<string, unknown> = {}) => ({ body: { access_token: access, token_type: "Bearer", expires_in: 300, ...extra } });

/** Tokens on a clock the test moves. */
function tokensAt(start = 1_000_000) {
	const clock = { now: start };
	return { clock, tokens: new AuthTokens(() => clock.now) };
}

describe("AuthTokens.ensure", () => {
	it("fetches a token once, keeps it with its expiry on the injected clock, and serves it while fresh", async () => {
		const { tokens } = tokensAt();
		const endpoint = tokenEndpoint(issued("A1"));
		expect(await tokens.ensure("dev", oauth("client_credentials"), { fetch: endpoint.fetch })).toMatchObject({ ok: true, tokens: { accessToken: "A1", issuedAt: 1_000_000, expiresAt: 1_300_000 } });
		expect(await tokens.ensure("dev", oauth("client_credentials"), { fetch: endpoint.fetch })).toMatchObject({ ok: true, tokens: { accessToken: "A1" } });
		expect(endpoint.grants).toEqual(["client_credentials"]);
		expect(tokens.current("dev", "kc")?.accessToken).toBe("A1");
	});

	it("gets a new token once the clock reaches the refresh margin", async () => {
		const { tokens, clock } = tokensAt();
		const endpoint = tokenEndpoint(issued("A1"), issued("A2"));
		await tokens.ensure("dev", oauth("client_credentials"), { fetch: endpoint.fetch });
		clock.now += 300_000 - 30_000 - 1;
		expect(await tokens.ensure("dev", oauth("client_credentials"), { fetch: endpoint.fetch })).toMatchObject({ tokens: { accessToken: "A1" } });
		clock.now += 1;
		expect(await tokens.ensure("dev", oauth("client_credentials"), { fetch: endpoint.fetch })).toMatchObject({ tokens: { accessToken: "A2" } });
	});

	it("renews a fresh token when asked to (the server answered 401 to it)", async () => {
		const { tokens } = tokensAt();
		const endpoint = tokenEndpoint(issued("A1"), issued("A2"));
		await tokens.ensure("dev", oauth("client_credentials"), { fetch: endpoint.fetch });
		expect(await tokens.ensure("dev", oauth("client_credentials"), { fetch: endpoint.fetch, renew: true })).toMatchObject({ tokens: { accessToken: "A2" } });
	});

	it("shares one request among concurrent runs that need the same token", async () => {
		const { tokens } = tokensAt();
		const endpoint = tokenEndpoint(issued("A1"));
		const [a, b] = await Promise.all([tokens.ensure("dev", oauth("client_credentials"), { fetch: endpoint.fetch }), tokens.ensure("dev", oauth("client_credentials"), { fetch: endpoint.fetch })]);
		expect([a, b]).toEqual([expect.objectContaining({ ok: true }), expect.objectContaining({ ok: true })]);
		expect(endpoint.grants).toHaveLength(1);
	});

	it("refreshes a stale token that has a refresh token, keeping the refresh token the answer leaves out", async () => {
		const { tokens, clock } = tokensAt();
		tokens.restore("dev", "kc", { accessToken: "old", refreshToken: "R", idToken: "I", issuedAt: 0, expiresAt: 10 });
		const endpoint = tokenEndpoint(issued("A2"));
		clock.now = 100;
		expect(await tokens.ensure("dev", oauth("password"), { fetch: endpoint.fetch })).toMatchObject({ ok: true, tokens: { accessToken: "A2", refreshToken: "R", idToken: "I" } });
		expect(endpoint.grants).toEqual(["refresh_token"]);
	});

	it("after a refused refresh, drops the tokens and asks a grant that needs no person again", async () => {
		const { tokens } = tokensAt();
		tokens.restore("dev", "kc", { accessToken: "old", refreshToken: "R", issuedAt: 0, expiresAt: 10 });
		const endpoint = tokenEndpoint({ status: 400, body: { error: "invalid_grant" } }, issued("A2"));
		expect(await tokens.ensure("dev", oauth("client_credentials"), { fetch: endpoint.fetch })).toMatchObject({ ok: true, tokens: { accessToken: "A2" } });
		expect(endpoint.grants).toEqual(["refresh_token", "client_credentials"]);
	});

	it("after a refused refresh of a grant that needs a person, drops the tokens and says to sign in again", async () => {
		const { tokens } = tokensAt();
		tokens.restore("dev", "kc", { accessToken: "old", refreshToken: "R", issuedAt: 0, expiresAt: 10 });
		const signIn = jest.fn<ReturnType<NonNullable<InteractiveGrants["authorizationCode"]>>, []>();
		const out = await tokens.ensure("dev", oauth("authorization_code"), { fetch: tokenEndpoint({ status: 400, body: { error: "invalid_grant" } }).fetch, interactive: { authorizationCode: signIn } });
		expect(out).toMatchObject({ ok: false, error: { code: "auth_failed", message: expect.stringMatching(/^Auth "kc", refresh: the refresh token was refused/) as unknown } });
		expect(signIn).not.toHaveBeenCalled();
		expect(tokens.current("dev", "kc")).toBeUndefined();
	});

	it.each([
		["authorization_code", "authorizationCode", "authorization"],
		["device_code", "deviceCode", "device authorization"],
	] as const)("a %s grant signs in through the host's %s, and fails at %s without one", async (grant, entry, step) => {
		const { tokens } = tokensAt();
		const none = await tokens.ensure("dev", oauth(grant), { fetch: tokenEndpoint().fetch });
		expect(none).toMatchObject({ ok: false, error: { message: `Auth "kc", ${step}: this grant needs a person to sign in, and nobody can here` } });
		const signedIn: TokenSet = { accessToken: "P", issuedAt: 0 };
		const interactive: InteractiveGrants = { [entry]: () => Promise.resolve({ ok: true, tokens: signedIn }) };
		expect(await tokens.ensure("dev", oauth(grant), { fetch: tokenEndpoint().fetch, interactive })).toEqual({ ok: true, tokens: signedIn });
	});

	it("keeps nothing when the provider refuses the grant", async () => {
		const { tokens } = tokensAt();
		const out = await tokens.ensure("dev", oauth("client_credentials"), { fetch: tokenEndpoint({ status: 401, body: { error: "invalid_client" } }).fetch });
		expect(out).toMatchObject({ ok: false, error: { message: expect.stringContaining('Auth "kc", token request: the provider refused the client') as unknown } });
		expect(tokens.current("dev", "kc")).toBeUndefined();
	});

	it("asks nothing of the provider for a configuration with an unset secret, or one that signs", async () => {
		const { tokens } = tokensAt();
		const endpoint = tokenEndpoint();
		expect(await tokens.ensure("dev", oauth("client_credentials", { unset: ["kc-secret"] }), { fetch: endpoint.fetch })).toMatchObject({ ok: false, error: { message: expect.stringContaining('secret "kc-secret" is not set') as unknown } });
		const aws = { name: "aws", config: { type: "aws-sigv4" }, secrets: {}, unset: [] } as unknown as ResolvedAuth;
		expect(await tokens.ensure("dev", aws, { fetch: endpoint.fetch })).toMatchObject({ ok: false, error: { message: expect.stringContaining('{{$auth.token("aws")}}') as unknown } });
		expect(endpoint.grants).toEqual([]);
	});
});

describe("AuthTokens keeping", () => {
	const set = (access: string, more: Partial<TokenSet> = {}): TokenSet => ({ accessToken: access, issuedAt: 0, ...more });

	it("keeps tokens per environment and configuration", () => {
		const tokens = new AuthTokens(() => 0);
		tokens.restore("dev", "kc", set("D"));
		tokens.restore("prod", "kc", set("P"));
		expect(tokens.current("dev", "kc")?.accessToken).toBe("D");
		expect(tokens.current("prod", "kc")?.accessToken).toBe("P");
		expect(tokens.current("dev", "other")).toBeUndefined();
	});

	it("lists every kept value to mask: access, ID and refresh tokens", () => {
		const tokens = new AuthTokens(() => 0);
		tokens.restore("dev", "a", set("A", { idToken: "I", refreshToken: "R" }));
		tokens.restore("dev", "b", set("B"));
		expect(tokens.values().sort()).toEqual(["A", "B", "I", "R"]);
	});

	it("clears one environment without touching another whose name starts the same", () => {
		const tokens = new AuthTokens(() => 0);
		tokens.restore("dev", "kc", set("D"));
		tokens.restore("dev2", "kc", set("D2"));
		tokens.clear("dev");
		expect(tokens.current("dev", "kc")).toBeUndefined();
		expect(tokens.current("dev2", "kc")?.accessToken).toBe("D2");
		tokens.clear();
		expect(tokens.values()).toEqual([]);
	});

	it("tells its listeners of each change until they unsubscribe", async () => {
		const { tokens } = tokensAt();
		const listener = jest.fn();
		const off = tokens.onChange(listener);
		await tokens.ensure("dev", oauth("client_credentials"), { fetch: tokenEndpoint(issued("A1")).fetch });
		tokens.clear();
		expect(listener).toHaveBeenCalledTimes(2);
		off();
		tokens.clear();
		expect(listener).toHaveBeenCalledTimes(2);
	});
});

describe("AuthTokens across sessions (persist = true)", () => {
	/** A store over a Map, as the plugin's secret storage keeps it. */
	function memoryStore(): TokenStore & { map: Map<string, TokenSet> } {
		const map = new Map<string, TokenSet>();
		return { map, load: (e, n) => map.get(`${e}/${n}`), save: (e, n, t) => (t ? map.set(`${e}/${n}`, t) : map.delete(`${e}/${n}`)), clear: () => map.clear() };
	}
	const persisted = (grant: OAuth2Config["grant"] = "client_credentials"): ResolvedAuth => {
		const base = oauth(grant);
		return { ...base, config: { ...(base.config as OAuth2Config), persist: true } };
	};

	it("keeps a persist configuration's tokens in the store, and a later session uses them without a request", async () => {
		const store = memoryStore();
		await new AuthTokens(() => 0, store).ensure("dev", persisted(), { fetch: tokenEndpoint(issued("A1")).fetch });
		expect(store.map.get("dev/kc")?.accessToken).toBe("A1");
		const later = new AuthTokens(() => 1_000, store);
		const endpoint = tokenEndpoint();
		expect(await later.ensure("dev", persisted(), { fetch: endpoint.fetch })).toMatchObject({ ok: true, tokens: { accessToken: "A1" } });
		expect(endpoint.grants).toEqual([]);
		expect(later.current("dev", "kc")?.accessToken).toBe("A1");
	});

	it("keeps nothing of a configuration without persist, and reads nothing kept for it", async () => {
		const store = memoryStore();
		store.map.set("dev/kc", { accessToken: "OLD", issuedAt: 0 });
		const tokens = new AuthTokens(() => 0, store);
		expect(tokens.current("dev", "kc")).toBeUndefined();
		expect(await tokens.ensure("dev", oauth("client_credentials"), { fetch: tokenEndpoint(issued("A1")).fetch })).toMatchObject({ tokens: { accessToken: "A1" } });
		expect(store.map.get("dev/kc")?.accessToken).toBe("OLD");
	});

	it("forgets kept tokens when their refresh is refused, and on Clear auth tokens", async () => {
		const store = memoryStore();
		store.map.set("dev/kc", { accessToken: "old", refreshToken: "R", issuedAt: 0, expiresAt: 10 });
		const tokens = new AuthTokens(() => 100, store);
		const out = await tokens.ensure("dev", persisted("authorization_code"), { fetch: tokenEndpoint({ status: 400, body: { error: "invalid_grant" } }).fetch });
		expect(out.ok).toBe(false);
		expect(store.map.has("dev/kc")).toBe(false);
		store.map.set("prod/kc", { accessToken: "P", issuedAt: 0 });
		tokens.clear();
		expect(store.map.size).toBe(0);
	});
});

