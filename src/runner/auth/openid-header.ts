/**
 * httpyac's `Authorization: openid <grant> [<prefix>]` (also `oauth2 …`): not a header to send,
 * but an OAuth 2.0 configuration written as variables `<prefix>_tokenEndpoint`,
 * `<prefix>_clientId`, … (docs/auth.md). Pure: the variables are read through a function, and
 * the configuration built here goes through the same token cache as a user.toml one.
 */
import { OAUTH_GRANTS, type OAuth2Config, type OAuthGrant, type ResolvedAuth } from "../../settings/auth-config";

export interface OpenIdHeader {
	grant: string;
	/** httpyac's default prefix is `oauth2`. */
	prefix: string;
}

const OPENID_FORM = /^[ \t]*(?:openid|oauth2)[ \t]+(\S+)(?:[ \t]+(\S+))?[ \t]*$/i;

/** The grant and prefix of an `Authorization: openid …` value; null for any other value. */
export function parseOpenIdAuthorization(value: string): OpenIdHeader | null {
	const m = OPENID_FORM.exec(value);
	return m ? { grant: m[1], prefix: m[2] ?? "oauth2" } : null;
}

/** The name its tokens are kept under (per environment), and shown in errors. */
export const openIdAuthName = (header: OpenIdHeader): string => `openid ${header.grant} ${header.prefix}`;

export type OpenIdAuth = { ok: true; auth: ResolvedAuth & { config: OAuth2Config } } | { ok: false; reason: string };

/** httpyac's short names of the grants (its flows' `supportsFlow`). */
const GRANT_ALIASES: Readonly<Partial<Record<string, OAuthGrant>>> = { client: "client_credentials", code: "authorization_code", device: "device_code" };

/** httpyac's default prefix: a variable not set under the written prefix is read under this one. */
const DEFAULT_PREFIX = "oauth2";

/** httpyac's false values of a flag variable. */
const isFalse = (v: string | undefined) => v !== undefined && ["false", "0"].includes(v.toLowerCase());

/**
 * The configuration `<prefix>_*` variables describe for the grant. Every variable the grant
 * needs must be set: the first one missing is named. As in httpyac, a variable not set under the
 * prefix is read under `oauth2_`, and `<prefix>_server` with `<prefix>_realm` stands for a Keycloak
 * realm's endpoints.
 */
export function openIdAuth(header: OpenIdHeader, variable: (name: string) => string | undefined): OpenIdAuth {
	const written = `Authorization: openid ${header.grant} ${header.prefix}`;
	const named = GRANT_ALIASES[header.grant] ?? header.grant;
	if (!(OAUTH_GRANTS as readonly string[]).includes(named)) return { ok: false, reason: `${written}: grant "${header.grant}" is not supported (use one of ${OAUTH_GRANTS.join(", ")})` };
	const grant = named as OAuthGrant;
	const nonEmpty = (name: string): string | undefined => {
		const v = variable(name)?.trim();
		return v ? v : undefined;
	};
	const read = (key: string): string | undefined => nonEmpty(`${header.prefix}_${key}`) ?? nonEmpty(`${DEFAULT_PREFIX}_${key}`);
	const realm = read("server") && read("realm") ? `${read("server")?.replace(/\/+$/, "")}/realms/${read("realm")}/protocol/openid-connect` : undefined;
	const endpoint = (key: string, keycloakPath: string) => read(key) ?? (realm ? `${realm}/${keycloakPath}` : undefined);
	const needed: Array<[string, string | undefined]> = [
		["tokenEndpoint", endpoint("tokenEndpoint", "token")],
		["clientId", read("clientId")],
		...(grant === "authorization_code" ? ([["authorizationEndpoint", endpoint("authorizationEndpoint", "auth")]] as Array<[string, string | undefined]>) : []),
		...(grant === "device_code" ? ([["deviceCodeEndpoint", endpoint("deviceCodeEndpoint", "auth/device")]] as Array<[string, string | undefined]>) : []),
		...(grant === "password"
			? ([
					["username", read("username")],
					["password", read("password")],
				] as Array<[string, string | undefined]>)
			: []),
	];
	const missing = needed.find(([, v]) => v === undefined);
	if (missing) return { ok: false, reason: `${written} needs the variable ${header.prefix}_${missing[0]} (set it in the environment or as @${header.prefix}_${missing[0]} = … in the note)` };
	const value = (key: string) => needed.find(([k]) => k === key)?.[1];
	for (const key of ["tokenEndpoint", "authorizationEndpoint", "deviceCodeEndpoint"]) {
		const url = value(key);
		if (url !== undefined && !/^https?:\/\/\S+$/i.test(url)) return { ok: false, reason: `${written}: ${header.prefix}_${key} must be an http(s) URL (got ${JSON.stringify(url)})` };
	}
	const resource = read("resource");
	if (resource !== undefined && !/^[a-z][a-z0-9+.-]*:[^#\s]+$/i.test(resource)) return { ok: false, reason: `${written}: ${header.prefix}_resource must be an absolute URI without a fragment (got ${JSON.stringify(resource)})` };
	const audience = read("audience");
	const clientSecret = read("clientSecret");
	// httpyac asks for an ID token in a sign-in when no scope is written.
	const scope = read("scope") ?? (grant === "authorization_code" || grant === "device_code" ? "openid" : undefined);
	const redirectUri = read("redirectUri");
	const usePkce = read("usePkce");
	const config: OAuth2Config = {
		type: "oauth2",
		grant,
		tokenUrl: value("tokenEndpoint"),
		clientId: value("clientId") as string,
		pkce: usePkce === undefined ? true : usePkce.toLowerCase() !== "false",
		persist: false,
		...(grant === "authorization_code" ? { authUrl: value("authorizationEndpoint") } : {}),
		...(grant === "device_code" ? { deviceUrl: value("deviceCodeEndpoint") } : {}),
		...(grant === "password" ? { username: value("username"), password: { secret: `${header.prefix}_password` } } : {}),
		// The secrets come from variables, not from secret storage: these ids only name them.
		...(clientSecret ? { clientSecret: { secret: `${header.prefix}_clientSecret` } } : {}),
		...(scope ? { scope } : {}),
		...(redirectUri ? { redirectUri } : {}),
		...(audience ? { audience } : {}),
		...(resource ? { resource: [resource] } : {}),
		...(isFalse(read("useAuthorizationHeader")) ? { clientAuth: "post" as const } : {}),
	};
	const secrets: Record<string, string> = { ...(clientSecret ? { client_secret: clientSecret } : {}), ...(grant === "password" ? { password: value("password") as string } : {}) };
	return { ok: true, auth: { name: openIdAuthName(header), config, secrets, unset: [] } };
}
