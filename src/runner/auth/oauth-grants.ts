/**
 * The OAuth 2.0 grants, through oauth4webapi (a certified client: we build no protocol message
 * by hand). Each function returns the tokens or the step that failed and why; none throws.
 */
import type * as OAuth from "oauth4webapi";
import type { OAuth2Config, ResolvedAuth } from "../../settings/auth-config";
import { problemOf, type AuthProblem, type AuthStep } from "./auth-failures";
import { oauthLibrary } from "./libraries";
import type { TokenSet } from "./token-set";

export type GrantOutcome = { ok: true; tokens: TokenSet } | { ok: false; problem: AuthProblem };

/** What a grant needs from its host: the fetch to the provider (the run's transport), the clock. */
export interface GrantDeps {
	fetch: (url: string, init: RequestInit) => Promise<Response>;
	now(): number;
	/** Discovery documents by issuer, kept for the session. */
	discovered?: Map<string, OAuth.AuthorizationServer>;
	/** The run's cancel: a sign-in that waits for a person ends with it. */
	signal?: AbortSignal;
}

export type OAuthAuth = ResolvedAuth & { config: OAuth2Config };

/** Options every oauth4webapi request takes: our fetch, and plain http where the user wrote an http URL. */
export function requestOptions<M extends string, B>(auth: OAuthAuth, deps: GrantDeps): OAuth.HttpRequestOptions<M, B> {
	const o = oauthLibrary();
	const c = auth.config;
	const insecure = [c.issuer, c.tokenUrl, c.authUrl, c.deviceUrl].some((u) => u?.startsWith("http:"));
	// Our fetch takes any method and body oauth4webapi sends (a string or URLSearchParams).
	const options: OAuth.HttpRequestOptions<M, B> = { [o.customFetch]: deps.fetch as unknown as OAuth.HttpRequestOptions<M, B>[typeof OAuth.customFetch] };
	// oauth4webapi refuses plain http unless told; its flag is marked deprecated only to stand out. An http
	// endpoint here is one the user wrote (a provider on their machine or network), so it is allowed.
	if (insecure) Object.assign(options, { [(o as unknown as Record<string, symbol>)["allowInsecureRequests"]]: true });
	return options;
}

/** The authorization server: the written endpoints over what the issuer's discovery says. */
export async function serverOf(auth: OAuthAuth, deps: GrantDeps): Promise<{ ok: true; as: OAuth.AuthorizationServer } | { ok: false; problem: AuthProblem }> {
	const c = auth.config;
	const written = { token_endpoint: c.tokenUrl, authorization_endpoint: c.authUrl, device_authorization_endpoint: c.deviceUrl };
	if (!c.issuer) return { ok: true, as: { issuer: new URL(c.tokenUrl ?? c.authUrl ?? "http://localhost").origin, ...written } };
	const known = deps.discovered?.get(c.issuer);
	if (known) return { ok: true, as: { ...known, ...defined(written) } };
	const o = oauthLibrary();
	try {
		const issuer = new URL(c.issuer);
		const as = await o.processDiscoveryResponse(issuer, await o.discoveryRequest(issuer, requestOptions(auth, deps)));
		deps.discovered?.set(c.issuer, as);
		return { ok: true, as: { ...as, ...defined(written) } };
	} catch (e) {
		return { ok: false, problem: problemOf("discovery", e, c.issuer) };
	}
}

const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The client as oauth4webapi describes it, and how it authenticates at the token endpoint. */
export function clientOf(auth: OAuthAuth): { client: OAuth.Client; clientAuth: OAuth.ClientAuth } {
	const o = oauthLibrary();
	const secret = auth.secrets.client_secret;
	const clientAuth = secret === undefined ? o.None() : auth.config.clientAuth === "post" ? o.ClientSecretPost(secret) : o.ClientSecretBasic(secret);
	return { client: { client_id: auth.config.clientId }, clientAuth };
}

/** The tokens of a token endpoint response, with the expiry on our clock. */
export function tokenSetOf(response: OAuth.TokenEndpointResponse, now: number, previous?: TokenSet): TokenSet {
	return {
		accessToken: response.access_token,
		issuedAt: now,
		...(response.expires_in !== undefined ? { expiresAt: now + response.expires_in * 1000 } : {}),
		// A refresh answer may omit what did not change (RFC 6749, section 6): the refresh token and the ID token stay.
		...(response.id_token ?? previous?.idToken ? { idToken: response.id_token ?? previous?.idToken } : {}),
		...(response.refresh_token ?? previous?.refreshToken ? { refreshToken: response.refresh_token ?? previous?.refreshToken } : {}),
		...(response.scope !== undefined ? { scope: response.scope } : {}),
		...(response.token_type ? { tokenType: response.token_type } : {}),
	};
}

/** Runs one token endpoint exchange: the request, then the processing of its answer. */
export async function tokenExchange(auth: OAuthAuth, deps: GrantDeps, step: AuthStep, exchange: (as: OAuth.AuthorizationServer) => Promise<OAuth.TokenEndpointResponse>, previous?: TokenSet): Promise<GrantOutcome> {
	const server = await serverOf(auth, deps);
	if (!server.ok) return server;
	if (!server.as.token_endpoint) return { ok: false, problem: { step: "configuration", reason: "no token endpoint", hint: "Set token_url, or an issuer whose discovery names one" } };
	try {
		return { ok: true, tokens: tokenSetOf(await exchange(server.as), deps.now(), previous) };
	} catch (e) {
		return { ok: false, problem: problemOf(step, e, server.as.token_endpoint) };
	}
}

/** RFC 8707 resource indicators: one `resource` per URI, in every token request (§2.2) as in the authorization request. */
export const resourceParams = (auth: OAuthAuth): string[][] => (auth.config.resource ?? []).map((r) => ["resource", r]);

/**
 * What the token is for, in a request that asks for a grant (client credentials, password, the
 * authorization and device authorization requests): the scope, Auth0's `audience` and the
 * resource indicators, as httpyac sends them.
 */
export function targetParams(auth: OAuthAuth, base: Record<string, string> = {}): URLSearchParams {
	const c = auth.config;
	const params = new URLSearchParams(base);
	if (c.scope) params.set("scope", c.scope);
	if (c.audience) params.set("audience", c.audience);
	for (const [k, v] of resourceParams(auth)) params.append(k, v);
	return params;
}

/** Options of a token request that redeems a grant (code, device code, refresh): our fetch and the resource indicators. */
export function redeemOptions(auth: OAuthAuth, deps: GrantDeps): OAuth.TokenEndpointRequestOptions {
	const resource = resourceParams(auth);
	return { ...requestOptions(auth, deps), ...(resource.length > 0 ? { additionalParameters: resource } : {}) };
}

/** Client credentials (RFC 6749 §4.4): no user, no browser: what CI runs. */
export function clientCredentialsGrant(auth: OAuthAuth, deps: GrantDeps): Promise<GrantOutcome> {
	const o = oauthLibrary();
	const { client, clientAuth } = clientOf(auth);
	return tokenExchange(auth, deps, "token request", async (as) => o.processClientCredentialsResponse(as, client, await o.clientCredentialsGrantRequest(as, client, clientAuth, targetParams(auth), requestOptions(auth, deps))));
}

/** Resource owner password (RFC 6749 §4.3), for the providers and test realms that still allow it. */
export function passwordGrant(auth: OAuthAuth, deps: GrantDeps): Promise<GrantOutcome> {
	const o = oauthLibrary();
	const { client, clientAuth } = clientOf(auth);
	const params = targetParams(auth, { username: auth.config.username ?? "", password: auth.secrets.password ?? "" });
	return tokenExchange(auth, deps, "token request", async (as) => o.processGenericTokenEndpointResponse(as, client, await o.genericTokenEndpointRequest(as, client, clientAuth, "password", params, requestOptions(auth, deps))));
}

/** A refresh (RFC 6749 §6): new tokens for the refresh token, keeping what the answer leaves out. */
export function refreshGrant(auth: OAuthAuth, deps: GrantDeps, previous: TokenSet & { refreshToken: string }): Promise<GrantOutcome> {
	const o = oauthLibrary();
	const { client, clientAuth } = clientOf(auth);
	return tokenExchange(auth, deps, "refresh", async (as) => o.processRefreshTokenResponse(as, client, await o.refreshTokenGrantRequest(as, client, clientAuth, previous.refreshToken, redeemOptions(auth, deps))), previous);
}
