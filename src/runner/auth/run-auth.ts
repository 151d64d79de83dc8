/**
 * What a run's blocks see of auth: `{{$auth.token("name")}}` read from the kept tokens (in the
 * preparation, which never waits), and `acquire`, which the run awaits before preparing a block
 * that names a configuration. One per run, for the active environment.
 */
import type { AuthReference, Lookup } from "../../blocks";
import type { OAuthGrant, ResolvedAuth } from "../../settings/auth-config";
import type { RunError } from "../result";
import type { Transport } from "../transport";
import { authError } from "./auth-failures";
import type { AuthTokens, InteractiveGrants } from "./auth-tokens";
import type * as AwsSigV4 from "./aws-sigv4";
import { transportFetch } from "./transport-fetch";

/** An OAuth configuration a request used: the Auth tab lists it and reads its tokens from the session's cache by these. */
export interface AuthUse {
	environment: string;
	/** The configuration's name (`openid <grant> <prefix>` for httpyac's header form). */
	name: string;
	grant: OAuthGrant;
}

export interface RunAuth {
	/** The environment whose configurations and tokens the run uses. */
	readonly environment: string;
	/** How a request used the named configuration; undefined for an aws-sigv4 or unknown one (no token to show). */
	use(name: string): AuthUse | undefined;
	/** The kept value a reference stands for (a token, or an aws-sigv4 configuration's credentials to sign with). */
	lookup(ref: AuthReference): Lookup;
	/** Fetches or renews the tokens of the named configurations; the first failure, or null. */
	acquire(names: readonly string[], opts?: { renew?: boolean; signal?: AbortSignal }): Promise<RunError | null>;
	/** A fresh access token for a configuration written in the request itself (httpyac's `Authorization: openid …`). */
	tokenFor(auth: ResolvedAuth, opts?: { renew?: boolean; signal?: AbortSignal }): Promise<{ ok: true; token: string } | { ok: false; error: RunError }>;
	/** Whether a 401 to a request that used the configuration is worth one new token (OAuth, not a signature). */
	renewable(name: string): boolean;
}

export interface RunAuthOptions {
	environment: string;
	configs: Readonly<Record<string, ResolvedAuth>>;
	tokens: AuthTokens;
	transport: () => Transport;
	interactive?: InteractiveGrants;
}

export function runAuth(opts: RunAuthOptions): RunAuth {
	const configOf = (name: string) => (Object.prototype.hasOwnProperty.call(opts.configs, name) ? opts.configs[name] : undefined);
	const missing = (name: string): string => {
		const names = Object.keys(opts.configs);
		return `no auth configuration "${name}" in environment "${opts.environment}"${names.length ? ` (defined: ${names.join(", ")})` : ""}`;
	};
	return {
		environment: opts.environment,
		use(name) {
			const config = configOf(name)?.config;
			return config?.type === "oauth2" ? { environment: opts.environment, name, grant: config.grant } : undefined;
		},
		lookup(ref) {
			const written = `{{$auth.${ref.which}("${ref.name}")}}`;
			const unresolved = (why: string): Lookup => ({ ok: false, message: `Unresolved reference ${written}: ${why}` });
			const auth = configOf(ref.name);
			if (!auth) return unresolved(missing(ref.name));
			if (auth.config.type === "aws-sigv4") {
				if (ref.which === "idToken") return unresolved(`"${ref.name}" is an aws-sigv4 configuration: it signs requests and has no ID token`);
				// eslint-disable-next-line @typescript-eslint/no-require-imports -- main.js carries the signature as a text module, compiled on the first signed run
				const signed = (require("./aws-sigv4") as typeof AwsSigV4).awsAuthorization(auth);
				return signed.ok ? { ok: true, value: signed.value } : unresolved(signed.reason);
			}
			const tokens = opts.tokens.current(opts.environment, ref.name, auth.config.persist);
			if (!tokens) return unresolved(`no token yet for auth "${ref.name}": run the block to get one`);
			if (ref.which === "token") return { ok: true, value: tokens.accessToken };
			return tokens.idToken !== undefined ? { ok: true, value: tokens.idToken } : unresolved(`the provider gave auth "${ref.name}" no ID token (ask for scope "openid")`);
		},
		async acquire(names, acquireOpts = {}) {
			for (const name of new Set(names)) {
				const auth = configOf(name);
				if (!auth) return authError(name, { step: "configuration", reason: missing(name) });
				if (auth.config.type !== "oauth2") continue;
				const got = await opts.tokens.ensure(opts.environment, auth, { renew: acquireOpts.renew, fetch: transportFetch(opts.transport(), acquireOpts.signal), interactive: opts.interactive, signal: acquireOpts.signal });
				if (!got.ok) return got.error;
			}
			return null;
		},
		async tokenFor(auth, tokenOpts = {}) {
			const got = await opts.tokens.ensure(opts.environment, auth, { renew: tokenOpts.renew, fetch: transportFetch(opts.transport(), tokenOpts.signal), interactive: opts.interactive, signal: tokenOpts.signal });
			return got.ok ? { ok: true, token: got.tokens.accessToken } : got;
		},
		renewable: (name) => configOf(name)?.config.type === "oauth2",
	};
}
