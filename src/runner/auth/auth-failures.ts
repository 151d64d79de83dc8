import type { RunError } from "../result";
import { AuthNetworkError } from "./transport-fetch";

/** A run that could not get its token (or signature): nothing of the block was sent. */
export type AuthErrorCode = "auth_failed";

declare module "../result" {
	interface KindErrorCodes {
		// Not a kind: the auth step fails any kind's run that needs a token.
		auth: AuthErrorCode;
	}
}

/** The step of a grant that failed, as the error line names it. */
export type AuthStep = "configuration" | "discovery" | "token request" | "refresh" | "authorization" | "device authorization" | "signing";

/** Why a step failed: what the provider or the network said, and what the user can do about it. */
export interface AuthProblem {
	step: AuthStep;
	reason: string;
	/** What to do, when we know. */
	hint?: string;
}

/** A configuration whose secret has no value: nothing can be asked of the provider. */
export function unsetSecret(secret: string): AuthProblem {
	return { step: "configuration", reason: `secret "${secret}" is not set`, hint: "Give it a value in the environment's settings (the CLI reads RUNNABLE_BLOCKS_SECRET_<ID>)" };
}

/** One clear line naming the configuration and the step (docs/auth.md#errors). */
export function authError(name: string, problem: AuthProblem): RunError {
	return { code: "auth_failed", message: `Auth "${name}", ${problem.step}: ${problem.reason}${problem.hint ? `. ${problem.hint}` : ""}` };
}

/** The OAuth error fields of a provider's JSON answer (RFC 6749 §5.2), when the thrown error carries them. */
interface OAuthErrorBody {
	error: string;
	error_description?: string;
	status?: number;
}

const isOAuthErrorBody = (e: unknown): e is OAuthErrorBody => typeof e === "object" && e !== null && typeof (e as { error?: unknown }).error === "string";

/** What an oauth4webapi call (or the fetch under it) threw, as a step's problem with advice. */
export function problemOf(step: AuthStep, thrown: unknown, url: string): AuthProblem {
	const e = challengeError(thrown) ?? thrown;
	if (e instanceof AuthNetworkError) return { step, reason: `could not reach ${url} (${e.message})`, hint: "Check the URL and that the identity provider is running" };
	if (isOAuthErrorBody(e)) {
		const said = `${e.error}${e.error_description ? `: ${e.error_description}` : ""}`;
		if (e.error === "invalid_client" || e.error === "unauthorized_client") return { step, reason: `the provider refused the client (${said})`, hint: "Check client_id and the client_secret secret" };
		if (e.error === "invalid_grant" && step === "refresh") return { step, reason: `the refresh token was refused (${said})`, hint: "Sign in again: run the block again (the refused tokens were dropped)" };
		if (e.error === "invalid_grant") return { step, reason: `the provider refused the grant (${said})`, hint: "Check the username and password" };
		if (e.error === "access_denied") return { step, reason: `consent was denied (${said})`, hint: "Run the block again and allow access" };
		if (e.error === "expired_token") return { step, reason: `the device code expired before it was confirmed (${said})`, hint: "Run the block again and confirm the new code in time" };
		if (e.error === "invalid_scope") return { step, reason: `the provider refused the scope (${said})`, hint: "Check scope" };
		return { step, reason: `the provider said ${said}` };
	}
	const status = responseStatus(e);
	if (status !== undefined) return { step, reason: `${url} answered HTTP ${status}, not an OAuth response`, hint: step === "discovery" ? "Check issuer" : "Check the endpoint URL" };
	return { step, reason: e instanceof Error ? e.message : String(e) };
}

/** The OAuth error a 401's `WWW-Authenticate` challenge carries (oauth4webapi throws those apart from JSON errors). */
function challengeError(e: unknown): OAuthErrorBody | null {
	const cause = (e as { code?: unknown; cause?: unknown } | null)?.cause;
	if ((e as { code?: unknown } | null)?.code !== "OAUTH_WWW_AUTHENTICATE_CHALLENGE" || !Array.isArray(cause)) return null;
	const params = (cause as Array<{ parameters?: Record<string, string | undefined> }>).map((c) => c.parameters ?? {}).find((p) => typeof p.error === "string");
	return params ? { error: params.error as string, ...(params.error_description ? { error_description: params.error_description } : {}) } : null;
}

/** The HTTP status of a response oauth4webapi refused (it keeps the response as the error's cause). */
function responseStatus(e: unknown): number | undefined {
	const cause = (e as { cause?: unknown } | null)?.cause;
	return cause instanceof Response ? cause.status : undefined;
}
