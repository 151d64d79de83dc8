/**
 * Device authorization (RFC 8628): the provider gives a user code and a link, the host shows
 * them, and the token endpoint is polled at the interval the provider asks for (5 seconds more
 * after each `slow_down`) until the person confirms, denies, or the code expires. oauth4webapi
 * sends and reads every message.
 */
import type * as OAuth from "oauth4webapi";
import { problemOf, type AuthProblem } from "./auth-failures";
import { oauthLibrary } from "./libraries";
import { clientOf, redeemOptions, requestOptions, serverOf, targetParams, tokenSetOf, type GrantDeps, type GrantOutcome, type OAuthAuth } from "./oauth-grants";
import { signInControl, waitFor, type SignInHost } from "./sign-in";

/** RFC 8628 §3.2: the interval when the provider names none, and what `slow_down` adds (§3.5). */
const DEFAULT_INTERVAL_S = 5;
const SLOW_DOWN_MS = 5_000;

const fail = (problem: AuthProblem): GrantOutcome => ({ ok: false, problem });

/** The OAuth error code oauth4webapi's ResponseBodyError carries, if any. */
const errorCode = (e: unknown): string | undefined => {
	const error = (e as { error?: unknown } | null)?.error;
	return typeof error === "string" ? error : undefined;
};

export async function deviceCodeGrant(auth: OAuthAuth, deps: GrantDeps, host: SignInHost): Promise<GrantOutcome> {
	const server = await serverOf(auth, deps);
	if (!server.ok) return server;
	const as = server.as;
	const endpoint = as.device_authorization_endpoint;
	if (!endpoint) return fail({ step: "configuration", reason: "no device authorization endpoint", hint: "Set device_url, or an issuer whose discovery names one" });
	if (!as.token_endpoint) return fail({ step: "configuration", reason: "no token endpoint", hint: "Set token_url, or an issuer whose discovery names one" });
	const o = oauthLibrary();
	const { client, clientAuth } = clientOf(auth);
	let started: OAuth.DeviceAuthorizationResponse;
	try {
		started = await o.processDeviceAuthorizationResponse(as, client, await o.deviceAuthorizationRequest(as, client, clientAuth, targetParams(auth), requestOptions(auth, deps)));
	} catch (e) {
		return fail(problemOf("device authorization", e, endpoint));
	}
	const expiresAt = deps.now() + started.expires_in * 1000;
	let interval = (started.interval ?? DEFAULT_INTERVAL_S) * 1000;
	const control = signInControl(deps.signal);
	const prompt = { kind: "device", name: auth.name, userCode: started.user_code, verificationUri: started.verification_uri, expiresAt, ...(started.verification_uri_complete ? { verificationUriComplete: started.verification_uri_complete } : {}) } as const;
	const close = host.prompt(prompt, control.cancel);
	const wait = host.wait ?? waitFor;
	try {
		for (;;) {
			await wait(interval, control.signal);
			if (control.signal.aborted) return fail({ step: "device authorization", reason: "the sign-in was cancelled" });
			if (deps.now() >= expiresAt) return fail({ step: "device authorization", reason: "the device code expired before it was confirmed", hint: "Run the block again and confirm the new code in time" });
			try {
				const response = await o.processDeviceCodeResponse(as, client, await o.deviceCodeGrantRequest(as, client, clientAuth, started.device_code, redeemOptions(auth, deps)));
				return { ok: true, tokens: tokenSetOf(response, deps.now()) };
			} catch (e) {
				const code = errorCode(e);
				if (code === "authorization_pending") continue;
				if (code === "slow_down") {
					interval += SLOW_DOWN_MS;
					continue;
				}
				return fail(problemOf("device authorization", e, as.token_endpoint));
			}
		}
	} finally {
		control.dispose();
		close();
	}
}
