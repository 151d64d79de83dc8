/**
 * Authorization code with PKCE (RFC 6749 §4.1, RFC 7636, RFC 8252): the system browser signs the
 * person in and returns to the host's redirect source (a loopback server on desktop and in the
 * CLI, Obsidian's protocol handler on mobile); oauth4webapi builds the proof, checks the state
 * and exchanges the code. The sign-in ends with the code, the prompt's Cancel, the run's cancel
 * or the time limit, and the redirect source stops listening in every case.
 */
import { DEFAULT_REDIRECT_URI } from "../../settings/auth-config";
import { problemOf, type AuthProblem } from "./auth-failures";
import { oauthLibrary } from "./libraries";
import type { RedirectOutcome } from "./loopback-redirect";
import { clientOf, redeemOptions, serverOf, targetParams, tokenExchange, type GrantDeps, type GrantOutcome, type OAuthAuth } from "./oauth-grants";
import { SIGN_IN_TIMEOUT_MS, signInControl, waitFor, type SignInHost } from "./sign-in";

const fail = (problem: AuthProblem): GrantOutcome => ({ ok: false, problem });

export async function authorizationCodeGrant(auth: OAuthAuth, deps: GrantDeps, host: SignInHost): Promise<GrantOutcome> {
	const server = await serverOf(auth, deps);
	if (!server.ok) return server;
	const as = server.as;
	if (!as.authorization_endpoint) return fail({ step: "configuration", reason: "no authorization endpoint", hint: "Set auth_url, or an issuer whose discovery names one" });
	if (!host.listen) return fail({ step: "authorization", reason: "the browser sign-in needs a loopback redirect, which only the desktop app and the CLI can receive", hint: 'Use grant = "device_code" here' });
	const wanted = auth.config.redirectUri ?? DEFAULT_REDIRECT_URI;
	let redirect;
	try {
		redirect = await host.listen(wanted);
	} catch (e) {
		return fail({ step: "authorization", reason: `could not listen on ${wanted} (${e instanceof Error ? e.message : String(e)})`, hint: "Free that port, or set another redirect_uri" });
	}
	try {
		const o = oauthLibrary();
		const { client, clientAuth } = clientOf(auth);
		const state = o.generateRandomState();
		const verifier = auth.config.pkce ? o.generateRandomCodeVerifier() : null;
		const url = new URL(as.authorization_endpoint);
		const params = targetParams(auth, { client_id: auth.config.clientId, redirect_uri: redirect.redirectUri, response_type: "code", state });
		if (verifier) for (const [k, v] of Object.entries({ code_challenge: await o.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" })) params.set(k, v);
		// Ours replace any of the same name the endpoint's URL carries; `resource` may repeat.
		for (const k of new Set(params.keys())) url.searchParams.delete(k);
		for (const [k, v] of params) url.searchParams.append(k, v);

		const returned = await waitForBrowser(host, deps, { kind: "browser", name: auth.name, url: url.toString() }, (signal) => redirect.next(signal, state));
		if (returned === "cancelled") return fail({ step: "authorization", reason: "the sign-in was cancelled" });
		if (returned === "timeout") return fail({ step: "authorization", reason: `nobody finished the sign-in within ${Math.round((host.timeoutMs ?? SIGN_IN_TIMEOUT_MS) / 60_000)} minutes`, hint: "Run the block again and finish the sign-in in the browser" });
		// oauth4webapi checks the state too; ours names the problem in the user's terms.
		if (returned.get("state") !== state) return fail({ step: "authorization", reason: "the browser returned with another sign-in's state (a stale or forged redirect)", hint: "Run the block again" });
		let callback: URLSearchParams;
		try {
			callback = o.validateAuthResponse(as, client, returned, state);
		} catch (e) {
			return fail(problemOf("authorization", e, as.authorization_endpoint));
		}
		// Without PKCE (pkce = false, for a provider that refuses it) oauth4webapi takes its marker, marked deprecated only to stand out.
		const proof = verifier ?? ((o as unknown as Record<string, symbol>)["nopkce"] as unknown as string);
		return await tokenExchange(auth, deps, "token request", async (server) => o.processAuthorizationCodeResponse(server, client, await o.authorizationCodeGrantRequest(server, client, clientAuth, callback, redirect.redirectUri, proof, redeemOptions(auth, deps))));
	} finally {
		redirect.close();
	}
}

/**
 * Shows the prompt and waits for the browser's return, the prompt's Cancel, the run's cancel or
 * the time limit, whichever comes first; the prompt is closed in every case.
 */
async function waitForBrowser(host: SignInHost, deps: GrantDeps, prompt: Extract<Parameters<SignInHost["prompt"]>[0], { kind: "browser" }>, next: (signal: AbortSignal) => Promise<RedirectOutcome>): Promise<URLSearchParams | "cancelled" | "timeout"> {
	const control = signInControl(deps.signal);
	const ended = new AbortController();
	let timedOut = false;
	void (host.wait ?? waitFor)(host.timeoutMs ?? SIGN_IN_TIMEOUT_MS, ended.signal).then(() => {
		if (ended.signal.aborted) return;
		timedOut = true;
		control.cancel();
	});
	const close = host.prompt(prompt, control.cancel);
	try {
		const outcome = await next(control.signal);
		if (outcome.ok) return outcome.params;
		return timedOut ? "timeout" : "cancelled";
	} finally {
		ended.abort();
		control.dispose();
		close();
	}
}
