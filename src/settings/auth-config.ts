/**
 * `[environments.<env>.auth.<name>]` of user.toml (docs/auth.md): named auth configurations that
 * `{{$auth.token("name")}}` reads. Validated key by key, as connections are, so a typo is
 * reported at its file:line:column and the rest of the file still works. A client secret, a
 * password or an AWS secret key is only ever a reference to a secret, never a literal.
 */

export const OAUTH_GRANTS = ["client_credentials", "password", "authorization_code", "device_code"] as const;
export type OAuthGrant = (typeof OAUTH_GRANTS)[number];

export const AUTH_TYPES = ["oauth2", "aws-sigv4"] as const;

/** A secret's id in Obsidian's secret storage (the CLI: RUNNABLE_BLOCKS_SECRET_<ID>). */
export interface SecretRef {
	secret: string;
}

export interface OAuth2Config {
	type: "oauth2";
	grant: OAuthGrant;
	/** OpenID issuer: the endpoints not written are found through its discovery document. */
	issuer?: string;
	tokenUrl?: string;
	authUrl?: string;
	deviceUrl?: string;
	clientId: string;
	clientSecret?: SecretRef;
	scope?: string;
	/** `password` grant: the resource owner's name and password. */
	username?: string;
	password?: SecretRef;
	/** Proof key for the authorization code grant (RFC 7636); default true. */
	pkce: boolean;
	/** Keep tokens across sessions (Obsidian's secret storage); default false. */
	persist: boolean;
	/** Authorization code: the loopback URI the browser returns to (RFC 8252 §7.3); no port: a free one. */
	redirectUri?: string;
	/** Auth0-style `audience` parameter: the API the token is for. */
	audience?: string;
	/** RFC 8707 resource indicators: the absolute URIs of the resources the token is for. */
	resource?: string[];
	/** How the client secret goes to the token endpoint: HTTP Basic (the default, RFC 6749 §2.3.1) or form fields (`post`). */
	clientAuth?: ClientAuthMethod;
}

export const CLIENT_AUTH_METHODS = ["basic", "post"] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** Where the browser returns when `redirect_uri` is not written: a free port chosen at each sign-in. */
export const DEFAULT_REDIRECT_URI = "http://127.0.0.1/callback";

/** Obsidian's protocol handler action that receives the browser's return on mobile (no loopback server there). */
export const PROTOCOL_REDIRECT_ACTION = "runnable-blocks-auth";
/** The redirect URI a provider must accept for sign-ins on mobile (docs/auth.md). */
export const PROTOCOL_REDIRECT_URI = `obsidian://${PROTOCOL_REDIRECT_ACTION}`;

export interface AwsSigV4Config {
	type: "aws-sigv4";
	accessKeyId: string;
	secretAccessKey: SecretRef;
	sessionToken?: SecretRef;
	region: string;
	service: string;
}

export type AuthConfig = OAuth2Config | AwsSigV4Config;

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
const show = (v: unknown) => JSON.stringify(v instanceof Date ? v.toISOString() : typeof v === "bigint" ? Number(v) : v);

const OAUTH_KEYS = ["type", "grant", "issuer", "token_url", "auth_url", "device_url", "client_id", "client_secret", "scope", "username", "password", "pkce", "persist", "redirect_uri", "audience", "resource", "client_auth"];
const AWS_KEYS = ["type", "access_key_id", "secret_access_key", "session_token", "region", "service"];

/**
 * Validates one `[environments.<env>.auth.<name>]` table; `error` and `warn` take the key under
 * it. Returns the configuration when it can be used.
 */
export function parseAuthConfig(c: Table, error: (key: string, message: string) => void, warn: (key: string, message: string) => void): AuthConfig | null {
	let usable = true;
	const bad = (key: string, message: string) => {
		error(key, message);
		usable = false;
	};
	const text = (key: string, required: boolean): string | undefined => {
		const v = c[key];
		if (v === undefined) {
			if (required) bad(key, "is required");
			return undefined;
		}
		if (typeof v === "string" && v.trim() !== "") return v;
		bad(key, `must be a non-empty string (got ${show(v)})`);
		return undefined;
	};
	const secret = (key: string, required: boolean): SecretRef | undefined => {
		const v = c[key];
		if (v === undefined) {
			if (required) bad(key, `is required, as ${key} = { secret = "id" }`);
			return undefined;
		}
		if (isTable(v) && typeof v.secret === "string" && v.secret !== "" && Object.keys(v).length === 1) return { secret: v.secret };
		// Never echo what was written: it may be the secret itself.
		bad(key, `must be a secret reference, ${key} = { secret = "id" }: a secret is never written in user.toml`);
		return undefined;
	};
	const url = (key: string): string | undefined => {
		const v = text(key, false);
		if (v !== undefined && !isHttpUrl(v)) bad(key, `must be an http(s) URL (got ${show(v)})`);
		return v;
	};
	const flag = (key: string, fallback: boolean): boolean => {
		const v = c[key];
		if (v === undefined) return fallback;
		if (typeof v === "boolean") return v;
		bad(key, `must be true or false (got ${show(v)})`);
		return fallback;
	};

	const type = c.type;
	if (type !== "oauth2" && type !== "aws-sigv4") {
		bad("type", `must be one of ${AUTH_TYPES.map((t) => `"${t}"`).join(", ")} (got ${show(type)})`);
		return null;
	}
	for (const key of Object.keys(c)) if (!(type === "oauth2" ? OAUTH_KEYS : AWS_KEYS).includes(key)) warn(key, `unknown key "${key}" for an ${type} configuration is kept but ignored`);

	if (type === "aws-sigv4") {
		const accessKeyId = text("access_key_id", true);
		const secretAccessKey = secret("secret_access_key", true);
		const sessionToken = secret("session_token", false);
		const region = text("region", true);
		const service = text("service", true);
		if (!usable || !accessKeyId || !secretAccessKey || !region || !service) return null;
		return { type, accessKeyId, secretAccessKey, region, service, ...(sessionToken ? { sessionToken } : {}) };
	}

	const grant = c.grant;
	const validGrant = typeof grant === "string" && (OAUTH_GRANTS as readonly string[]).includes(grant);
	if (!validGrant) bad("grant", `must be one of ${OAUTH_GRANTS.join(", ")} (got ${show(grant)})`);
	const config: OAuth2Config = { type, grant: (validGrant ? grant : "client_credentials") as OAuthGrant, clientId: text("client_id", true) ?? "", pkce: flag("pkce", true), persist: flag("persist", false) };
	const issuer = url("issuer");
	const tokenUrl = url("token_url");
	const authUrl = url("auth_url");
	const deviceUrl = url("device_url");
	const clientSecret = secret("client_secret", false);
	const scope = text("scope", false);
	const redirectUri = text("redirect_uri", false);
	if (redirectUri !== undefined && !isLoopbackUrl(redirectUri)) bad("redirect_uri", `must be an http URL on 127.0.0.1, [::1] or localhost, as http://127.0.0.1:8765/callback (got ${show(redirectUri)}): the sign-in's answer comes back to this computer`);
	const audience = text("audience", false);
	const resource = resources(c.resource, bad);
	const clientAuth = c.client_auth;
	if (clientAuth !== undefined && !(CLIENT_AUTH_METHODS as readonly unknown[]).includes(clientAuth)) bad("client_auth", `must be one of ${CLIENT_AUTH_METHODS.map((m) => `"${m}"`).join(", ")} (got ${show(clientAuth)})`);
	Object.assign(config, { issuer, tokenUrl, authUrl, deviceUrl, clientSecret, scope, redirectUri, audience, resource, clientAuth });
	if (config.grant === "password") {
		config.username = text("username", true);
		config.password = secret("password", true);
	}
	// Without an issuer, each endpoint the grant uses must be written.
	if (issuer === undefined && validGrant) {
		if (c.token_url === undefined) bad("token_url", "is required (or issuer, to find it through discovery)");
		if (config.grant === "authorization_code" && c.auth_url === undefined) bad("auth_url", "is required for the authorization_code grant (or issuer)");
		if (config.grant === "device_code" && c.device_url === undefined) bad("device_url", "is required for the device_code grant (or issuer)");
	}
	for (const key of Object.keys(config) as Array<keyof OAuth2Config>) if (config[key] === undefined) delete config[key];
	return usable ? config : null;
}

/** `resource`: one absolute URI or a list of them, without a fragment (RFC 8707 §2). */
function resources(v: unknown, bad: (key: string, message: string) => void): string[] | undefined {
	if (v === undefined) return undefined;
	const list: unknown[] | null = typeof v === "string" ? [v] : Array.isArray(v) ? (v as unknown[]) : null;
	const invalid = list === null || list.length === 0 ? v : list.find((r) => typeof r !== "string" || !isAbsoluteUriWithoutFragment(r));
	if (invalid !== undefined) {
		bad("resource", `must be an absolute URI without a fragment, or a list of them, as "https://api.example.com" (got ${show(invalid)})`);
		return undefined;
	}
	return list as string[];
}

function isAbsoluteUriWithoutFragment(text: string): boolean {
	try {
		return new URL(text).hash === "" && !text.includes("#");
	} catch {
		return false;
	}
}

function isHttpUrl(text: string): boolean {
	try {
		const u = new URL(text);
		return u.protocol === "http:" || u.protocol === "https:";
	} catch {
		return false;
	}
}

/** A loopback redirect (RFC 8252 §7.3): plain http to this machine, with or without a port. */
function isLoopbackUrl(text: string): boolean {
	try {
		const u = new URL(text);
		return u.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(u.hostname) && u.search === "" && u.hash === "";
	} catch {
		return false;
	}
}

/** The secret ids a configuration reads. */
export function authSecretRefs(config: AuthConfig): Array<{ key: string; ref: SecretRef }> {
	const refs: Array<[string, SecretRef | undefined]> =
		config.type === "aws-sigv4"
			? [
					["secret_access_key", config.secretAccessKey],
					["session_token", config.sessionToken],
				]
			: [
					["client_secret", config.clientSecret],
					["password", config.password],
				];
	return refs.flatMap(([key, ref]) => (ref ? [{ key, ref }] : []));
}

/** A configuration as a run uses it: the secrets it references read (an unset one is listed, never guessed). */
export interface ResolvedAuth {
	name: string;
	config: AuthConfig;
	/** Values by key (`client_secret`, `password`, `secret_access_key`, `session_token`). */
	secrets: Record<string, string>;
	/** Secret ids referenced but not set. */
	unset: string[];
}

/** Every configuration of an environment with its secrets read through `readSecret`. */
export function resolveAuthConfigs(configs: Readonly<Record<string, AuthConfig>>, readSecret: (id: string) => string | undefined): Record<string, ResolvedAuth> {
	const out: Record<string, ResolvedAuth> = {};
	for (const [name, config] of Object.entries(configs)) {
		const resolved: ResolvedAuth = { name, config, secrets: {}, unset: [] };
		for (const { key, ref } of authSecretRefs(config)) {
			const value = readSecret(ref.secret);
			if (value === undefined) resolved.unset.push(ref.secret);
			else resolved.secrets[key] = value;
		}
		out[name] = resolved;
	}
	return out;
}
