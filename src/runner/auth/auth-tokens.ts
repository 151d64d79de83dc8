/**
 * The session's tokens: one set per environment and configuration, in memory. A token is
 * fetched or renewed only here, by `ensure`, which the run calls before a block is prepared;
 * preparing (and so export) reads what is kept (`current`). Concurrent runs that need the same
 * token share one request.
 */
import type * as OAuth from "oauth4webapi";
import type { ResolvedAuth } from "../../settings/auth-config";
import type { RunError } from "../result";
import { authError, unsetSecret, type AuthProblem } from "./auth-failures";
import type * as OAuthGrants from "./oauth-grants";
import type { GrantDeps, GrantOutcome, OAuthAuth } from "./oauth-grants";

/** The grants, required on the first token: main.js carries them (and oauth4webapi) as text modules. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
const grants = () => require("./oauth-grants") as typeof OAuthGrants;
import { isFresh, type TokenSet } from "./token-set";
import type { TokenStore } from "./token-store";

/** Grants that need a person (a browser, a code to confirm): the host provides them, or they are not offered. */
export interface InteractiveGrants {
	authorizationCode?(auth: OAuthAuth, deps: GrantDeps): Promise<GrantOutcome>;
	deviceCode?(auth: OAuthAuth, deps: GrantDeps): Promise<GrantOutcome>;
}

export interface EnsureOptions {
	/** Get a new token even if the kept one looks fresh (the server answered 401 to it). */
	renew?: boolean;
	fetch: GrantDeps["fetch"];
	interactive?: InteractiveGrants;
	/** The run's cancel (a sign-in waiting for a person stops with it). */
	signal?: AbortSignal;
}

export type EnsureOutcome = { ok: true; tokens: TokenSet } | { ok: false; error: RunError };

export class AuthTokens {
	private readonly kept = new Map<string, TokenSet>();
	private readonly pending = new Map<string, Promise<EnsureOutcome>>();
	private readonly discovered = new Map<string, OAuth.AuthorizationServer>();
	private readonly listeners = new Set<() => void>();

	/** `store` keeps the tokens of `persist = true` configurations across sessions (the plugin's secret storage). */
	constructor(
		private readonly now: () => number = Date.now,
		private readonly store?: TokenStore,
	) {}

	/**
	 * The tokens kept for a configuration of an environment, fresh or not (what export puts in);
	 * with `persisted`, those of an earlier session too.
	 */
	current(environment: string, name: string, persisted = false): TokenSet | undefined {
		const key = keyOf(environment, name);
		const kept = this.kept.get(key);
		if (kept || !persisted || !this.store) return kept;
		const stored = this.store.load(environment, name);
		if (stored) this.kept.set(key, stored);
		return stored;
	}

	/** Every token kept: the values masked in the chat's context and in logs. */
	values(): string[] {
		return [...this.kept.values()].flatMap((t) => [t.accessToken, t.idToken, t.refreshToken].filter((v): v is string => v !== undefined));
	}

	/** Forgets the tokens of one environment, or all ("Clear auth tokens", kept ones included). */
	clear(environment?: string): void {
		for (const key of [...this.kept.keys()]) {
			if (environment !== undefined && !key.startsWith(keyOf(environment, ""))) continue;
			this.kept.delete(key);
			if (environment !== undefined) this.store?.save(environment, key.slice(keyOf(environment, "").length), null);
		}
		if (environment === undefined) this.store?.clear();
		this.changed();
	}

	/** Called whenever the kept tokens change (the Auth view redraws; persistence writes). */
	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Puts back tokens kept across sessions (`persist = true`). */
	restore(environment: string, name: string, tokens: TokenSet): void {
		this.kept.set(keyOf(environment, name), tokens);
	}

	/**
	 * A fresh token for the configuration: the kept one while it is fresh (and not to be renewed),
	 * else a refresh when there is a refresh token, else a new grant. A refused refresh drops the
	 * tokens; a grant that needs no person is then tried at once, another says to sign in again.
	 */
	ensure(environment: string, auth: ResolvedAuth, opts: EnsureOptions): Promise<EnsureOutcome> {
		const key = keyOf(environment, auth.name);
		const kept = this.current(environment, auth.name, auth.config.type === "oauth2" && auth.config.persist);
		if (kept && !opts.renew && isFresh(kept, this.now())) return Promise.resolve({ ok: true, tokens: kept });
		const running = this.pending.get(key);
		if (running) return running;
		const job = this.renew(key, auth, kept, opts)
			.then((outcome) => {
				// Kept across sessions only when the configuration asks for it; a refused refresh forgets them there too.
				if (auth.config.type === "oauth2" && auth.config.persist) this.store?.save(environment, auth.name, outcome.ok ? outcome.tokens : (this.kept.get(key) ?? null));
				return outcome;
			})
			.finally(() => this.pending.delete(key));
		this.pending.set(key, job);
		return job;
	}

	private async renew(key: string, auth: ResolvedAuth, kept: TokenSet | undefined, opts: EnsureOptions): Promise<EnsureOutcome> {
		const fail = (problem: AuthProblem): EnsureOutcome => ({ ok: false, error: authError(auth.name, problem) });
		if (auth.config.type !== "oauth2") return fail({ step: "configuration", reason: "an aws-sigv4 configuration signs requests: write Authorization: {{$auth.token(\"" + auth.name + "\")}}" });
		if (auth.unset.length > 0) return fail(unsetSecret(auth.unset[0]));
		const oauth = auth as OAuthAuth;
		const deps: GrantDeps = { fetch: opts.fetch, now: this.now, discovered: this.discovered, ...(opts.signal ? { signal: opts.signal } : {}) };
		let outcome: GrantOutcome | null = null;
		if (kept?.refreshToken) {
			outcome = await grants().refreshGrant(oauth, deps, { ...kept, refreshToken: kept.refreshToken });
			if (!outcome.ok) {
				this.kept.delete(key);
				this.changed();
				if (!needsNoPerson(oauth)) return fail(outcome.problem);
				outcome = null;
			}
		}
		outcome ??= await this.grant(oauth, deps, opts.interactive);
		if (!outcome.ok) return fail(outcome.problem);
		this.kept.set(key, outcome.tokens);
		this.changed();
		return { ok: true, tokens: outcome.tokens };
	}

	private grant(auth: OAuthAuth, deps: GrantDeps, interactive: InteractiveGrants | undefined): Promise<GrantOutcome> {
		switch (auth.config.grant) {
			case "client_credentials":
				return grants().clientCredentialsGrant(auth, deps);
			case "password":
				return grants().passwordGrant(auth, deps);
			case "authorization_code":
				return interactive?.authorizationCode?.(auth, deps) ?? Promise.resolve(unavailable("authorization"));
			case "device_code":
				return interactive?.deviceCode?.(auth, deps) ?? Promise.resolve(unavailable("device authorization"));
		}
	}

	private changed(): void {
		for (const l of this.listeners) l();
	}
}

const keyOf = (environment: string, name: string) => `${environment}\u0000${name}`;

/** Grants a refused refresh can repeat on its own. */
const needsNoPerson = (auth: OAuthAuth) => auth.config.grant === "client_credentials" || auth.config.grant === "password";

const unavailable = (step: "authorization" | "device authorization"): GrantOutcome => ({ ok: false, problem: { step, reason: "this grant needs a person to sign in, and nobody can here" } });
