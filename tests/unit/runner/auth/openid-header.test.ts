import { openIdAuth, parseOpenIdAuthorization } from "../../../../src/runner/auth/openid-header";

const vars = (v: Record<string, string>) => (name: string) => v[name];

describe("parseOpenIdAuthorization: httpyac's Authorization: openid <grant> [<prefix>]", () => {
	it("reads the grant and the prefix", () => expect(parseOpenIdAuthorization("openid client_credentials local")).toEqual({ grant: "client_credentials", prefix: "local" }));
	it("accepts oauth2 as the scheme and defaults the prefix to oauth2, as httpyac", () => expect(parseOpenIdAuthorization("oauth2 password")).toEqual({ grant: "password", prefix: "oauth2" }));
	it.each(["Bearer abc", "openid", "Basic openid x", "openid a b c"])("leaves %p alone", (v) => expect(parseOpenIdAuthorization(v)).toBeNull());
});

describe("openIdAuth: the <prefix>_* variables as an OAuth 2.0 configuration", () => {
	it("maps client credentials, the client secret read from its variable", () => {
		const got = openIdAuth({ grant: "client_credentials", prefix: "local" }, vars({ local_tokenEndpoint: "http://127.0.0.1:9/token", local_clientId: "app", local_clientSecret: "s3", local_scope: "read" }));
		expect(got).toEqual({
			ok: true,
			auth: { name: "openid client_credentials local", config: { type: "oauth2", grant: "client_credentials", tokenUrl: "http://127.0.0.1:9/token", clientId: "app", clientSecret: { secret: "local_clientSecret" }, scope: "read", pkce: true, persist: false }, secrets: { client_secret: "s3" }, unset: [] },
		});
	});

	it("maps the password grant with its username and password", () => {
		const got = openIdAuth({ grant: "password", prefix: "p" }, vars({ p_tokenEndpoint: "https://id/t", p_clientId: "app", p_username: "ann", p_password: "pw" }));
		if (!got.ok) throw new Error(got.reason);
		expect(got.auth.config).toMatchObject({ grant: "password", username: "ann" });
		expect(got.auth.secrets).toEqual({ password: "pw" });
	});

	it("builds a Keycloak realm's endpoints from server and realm", () => {
		const got = openIdAuth({ grant: "device_code", prefix: "kc" }, vars({ kc_server: "https://kc/", kc_realm: "r", kc_clientId: "app" }));
		if (!got.ok) throw new Error(got.reason);
		expect(got.auth.config).toMatchObject({ tokenUrl: "https://kc/realms/r/protocol/openid-connect/token", deviceUrl: "https://kc/realms/r/protocol/openid-connect/auth/device" });
	});

	it("turns PKCE off only when usePkce is false", () => {
		const got = openIdAuth({ grant: "authorization_code", prefix: "a" }, vars({ a_tokenEndpoint: "https://id/t", a_authorizationEndpoint: "https://id/a", a_clientId: "c", a_usePkce: "false" }));
		expect(got.ok && got.auth.config.type === "oauth2" && got.auth.config.pkce).toBe(false);
	});

	it("maps audience, resource and useAuthorizationHeader = false (the secret in the form), as httpyac sends them", () => {
		const got = openIdAuth({ grant: "client_credentials", prefix: "l" }, vars({ l_tokenEndpoint: "https://id/t", l_clientId: "c", l_audience: "https://api", l_resource: "urn:example:api", l_useAuthorizationHeader: "false" }));
		if (!got.ok) throw new Error(got.reason);
		expect(got.auth.config).toMatchObject({ audience: "https://api", resource: ["urn:example:api"], clientAuth: "post" });
	});

	it("keeps HTTP Basic for the client secret unless useAuthorizationHeader is false or 0", () => {
		const got = openIdAuth({ grant: "client_credentials", prefix: "l" }, vars({ l_tokenEndpoint: "https://id/t", l_clientId: "c", l_useAuthorizationHeader: "true" }));
		expect(got.ok && got.auth.config.type === "oauth2" && got.auth.config.clientAuth).toBeUndefined();
	});

	it("refuses a resource that is not an absolute URI", () => {
		const got = openIdAuth({ grant: "client_credentials", prefix: "l" }, vars({ l_tokenEndpoint: "https://id/t", l_clientId: "c", l_resource: "api" }));
		expect(got.ok ? "" : got.reason).toContain('l_resource must be an absolute URI without a fragment (got "api")');
	});

	it.each([
		["client", "client_credentials"],
		["code", "authorization_code"],
		["device", "device_code"],
	])("reads httpyac's short grant name %s as %s", (written, grant) => {
		const got = openIdAuth({ grant: written, prefix: "l" }, vars({ l_tokenEndpoint: "https://id/t", l_authorizationEndpoint: "https://id/a", l_deviceCodeEndpoint: "https://id/d", l_clientId: "c" }));
		expect(got.ok && got.auth.config.type === "oauth2" && got.auth.config.grant).toBe(grant);
	});

	it("reads a variable not set under the prefix under oauth2_, as httpyac", () => {
		const got = openIdAuth({ grant: "client_credentials", prefix: "l" }, vars({ oauth2_tokenEndpoint: "https://id/t", l_clientId: "c", oauth2_clientId: "other" }));
		expect(got.ok && got.auth.config.type === "oauth2" && [got.auth.config.tokenUrl, got.auth.config.clientId]).toEqual(["https://id/t", "c"]);
	});

	it.each([
		["authorization_code", "openid"],
		["device_code", "openid"],
		["client_credentials", undefined],
	])("%s without a scope variable asks for scope %s, as httpyac", (grant, scope) => {
		const got = openIdAuth({ grant, prefix: "l" }, vars({ l_tokenEndpoint: "https://id/t", l_authorizationEndpoint: "https://id/a", l_deviceCodeEndpoint: "https://id/d", l_clientId: "c" }));
		expect(got.ok && got.auth.config.type === "oauth2" && got.auth.config.scope).toBe(scope);
	});

	it.each([
		["client_credentials", {}, "local_tokenEndpoint"],
		["client_credentials", { local_tokenEndpoint: "https://id/t" }, "local_clientId"],
		["password", { local_tokenEndpoint: "https://id/t", local_clientId: "c", local_username: "u" }, "local_password"],
		["authorization_code", { local_tokenEndpoint: "https://id/t", local_clientId: "c" }, "local_authorizationEndpoint"],
		["device_code", { local_tokenEndpoint: "https://id/t", local_clientId: "c", local_deviceCodeEndpoint: " " }, "local_deviceCodeEndpoint"],
	] as Array<[string, Record<string, string>, string]>)("%s: names the missing variable", (grant, v, name) => {
		const got = openIdAuth({ grant, prefix: "local" }, vars(v));
		expect(got.ok ? "" : got.reason).toContain(`needs the variable ${name} `);
	});

	it("refuses a grant it cannot run, naming those it can", () => {
		const got = openIdAuth({ grant: "implicit", prefix: "local" }, vars({}));
		expect(got.ok ? "" : got.reason).toContain('grant "implicit" is not supported (use one of client_credentials, password');
	});

	it("refuses an endpoint that is not an http(s) URL", () => {
		const got = openIdAuth({ grant: "client_credentials", prefix: "l" }, vars({ l_tokenEndpoint: "id/token", l_clientId: "c" }));
		expect(got.ok ? "" : got.reason).toContain("l_tokenEndpoint must be an http(s) URL");
	});
});
