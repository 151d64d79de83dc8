import { parseAuthConfig, resolveAuthConfigs } from "../../../src/settings/auth-config";
import { environmentVariables, parseSettings } from "../../../src/settings/user-settings";

/** Parses one configuration table, collecting its problems as "key: message". */
function parse(table: Record<string, unknown>) {
	const errors: string[] = [];
	const warnings: string[] = [];
	const config = parseAuthConfig(table, (k, m) => errors.push(`${k}: ${m}`), (k, m) => warnings.push(`${k}: ${m}`));
	return { config, errors, warnings };
}

describe("[environments.<env>.auth.<name>]", () => {
	it("reads an oauth2 configuration with its defaults (pkce on, persist off)", () => {
		expect(parse({ type: "oauth2", grant: "client_credentials", token_url: "https://id.example.com/token", client_id: "notes", client_secret: { secret: "kc" }, scope: "api" })).toEqual({
			config: { type: "oauth2", grant: "client_credentials", tokenUrl: "https://id.example.com/token", clientId: "notes", clientSecret: { secret: "kc" }, scope: "api", pkce: true, persist: false },
			errors: [],
			warnings: [],
		});
	});

	it.each(["http://127.0.0.1:8765/callback", "http://localhost/cb", "http://[::1]:9000/"])("takes the loopback redirect_uri %s", (uri) => {
		expect(parse({ type: "oauth2", grant: "authorization_code", issuer: "https://x", client_id: "x", redirect_uri: uri }).config).toMatchObject({ redirectUri: uri });
	});

	it.each([
		[{ audience: "https://api.example.com" }, { audience: "https://api.example.com" }],
		[{ resource: "https://api.example.com/v1" }, { resource: ["https://api.example.com/v1"] }],
		[{ resource: ["https://a.example.com", "urn:example:b"] }, { resource: ["https://a.example.com", "urn:example:b"] }],
		[{ client_auth: "post" }, { clientAuth: "post" }],
	])("reads the token's target and the client's authentication: %j", (extra, expected) => {
		const { config, errors, warnings } = parse({ type: "oauth2", grant: "client_credentials", token_url: "https://x/t", client_id: "x", ...extra });
		expect([errors, warnings]).toEqual([[], []]);
		expect(config).toMatchObject(expected);
	});

	it("takes an issuer instead of the endpoints (discovery finds them)", () => {
		expect(parse({ type: "oauth2", grant: "device_code", issuer: "https://id.example.com", client_id: "notes" }).errors).toEqual([]);
	});

	it.each([
		[{ type: "oauth", client_id: "x" }, 'type: must be one of "oauth2", "aws-sigv4" (got "oauth")'],
		[{ type: "oauth2", grant: "implicit", token_url: "https://x/t", client_id: "x" }, 'grant: must be one of client_credentials, password, authorization_code, device_code (got "implicit")'],
		[{ type: "oauth2", grant: "client_credentials", client_id: "x" }, "token_url: is required (or issuer, to find it through discovery)"],
		[{ type: "oauth2", grant: "authorization_code", token_url: "https://x/t", client_id: "x" }, "auth_url: is required for the authorization_code grant (or issuer)"],
		[{ type: "oauth2", grant: "client_credentials", token_url: "ftp://x/t", client_id: "x" }, 'token_url: must be an http(s) URL (got "ftp://x/t")'],
		[{ type: "oauth2", grant: "client_credentials", token_url: "https://x/t" }, "client_id: is required"],
		[{ type: "oauth2", grant: "client_credentials", token_url: "https://x/t", client_id: "x", pkce: "yes" }, 'pkce: must be true or false (got "yes")'],
		[{ type: "oauth2", grant: "authorization_code", issuer: "https://x", client_id: "x", redirect_uri: "https://app.example.com/cb" }, 'redirect_uri: must be an http URL on 127.0.0.1, [::1] or localhost, as http://127.0.0.1:8765/callback (got "https://app.example.com/cb"): the sign-in\'s answer comes back to this computer'],
		[{ type: "oauth2", grant: "authorization_code", issuer: "https://x", client_id: "x", redirect_uri: "http://127.0.0.1:8765/cb?x=1" }, 'redirect_uri: must be an http URL on 127.0.0.1, [::1] or localhost, as http://127.0.0.1:8765/callback (got "http://127.0.0.1:8765/cb?x=1"): the sign-in\'s answer comes back to this computer'],
		[{ type: "oauth2", grant: "client_credentials", token_url: "https://x/t", client_id: "x", resource: "https://api.example.com#v1" }, 'resource: must be an absolute URI without a fragment, or a list of them, as "https://api.example.com" (got "https://api.example.com#v1")'],
		[{ type: "oauth2", grant: "client_credentials", token_url: "https://x/t", client_id: "x", resource: ["https://a", "api"] }, 'resource: must be an absolute URI without a fragment, or a list of them, as "https://api.example.com" (got "api")'],
		[{ type: "oauth2", grant: "client_credentials", token_url: "https://x/t", client_id: "x", client_auth: "jwt" }, 'client_auth: must be one of "basic", "post" (got "jwt")'],
		[{ type: "aws-sigv4", access_key_id: "AKID", secret_access_key: { secret: "aws" }, region: "eu-west-1" }, "service: is required"],
	])("refuses %j: %s", (table, message) => {
		const { config, errors } = parse(table);
		expect(config).toBeNull();
		expect(errors).toContain(message);
	});

	it("never echoes a secret written in the file", () => {
		const { errors } = parse({ type: "oauth2", grant: "client_credentials", token_url: "https://x/t", client_id: "x", client_secret: "hunter2" });
		expect(errors).toEqual(['client_secret: must be a secret reference, client_secret = { secret = "id" }: a secret is never written in user.toml']);
		expect(errors.join()).not.toContain("hunter2");
	});

	it("warns about an unknown key and keeps the configuration", () => {
		const { config, warnings } = parse({ type: "oauth2", grant: "client_credentials", token_url: "https://x/t", client_id: "x", audiance: "api" });
		expect(config).not.toBeNull();
		expect(warnings).toEqual(['audiance: unknown key "audiance" for an oauth2 configuration is kept but ignored']);
	});

	it("is read from user.toml beside the environment's variables, with problems at file:line:column", () => {
		const toml = '[environments.dev]\nbase = "http://x"\n\n[environments.dev.auth.kc]\ntype = "oauth2"\ngrant = "password"\ntoken_url = "https://x/t"\nclient_id = "notes"\nusername = "alice"\npassword = { secret = "alice" }\n\n[environments.dev.auth.bad]\ntype = "oauth2"\ngrant = "nope"\n';
		const parsed = parseSettings(toml);
		if (!parsed.ok) throw new Error("does not parse");
		expect(parsed.settings.environments.dev).toEqual({ base: { value: "http://x" } });
		expect(Object.keys(parsed.settings.auth.dev)).toEqual(["kc"]);
		expect(parsed.errors.map((e) => `${e.line}:${e.key}`)).toEqual(["14:environments.dev.auth.bad.grant", "12:environments.dev.auth.bad.client_id"]);
		const env = environmentVariables(parsed.settings, "dev", (id) => (id === "alice" ? "wonderland" : undefined));
		expect(env.auth.kc.secrets).toEqual({ password: "wonderland" });
		// A configuration's secrets are masked by value like the environment's.
		expect(env.secretValues).toContain("wonderland");
	});

	it("lists the secrets that are not set, never guessing a value", () => {
		const resolved = resolveAuthConfigs({ aws: { type: "aws-sigv4", accessKeyId: "AKID", secretAccessKey: { secret: "aws-key" }, sessionToken: { secret: "aws-token" }, region: "us-east-1", service: "s3" } }, (id) => (id === "aws-key" ? "k" : undefined));
		expect(resolved.aws).toEqual(expect.objectContaining({ secrets: { secret_access_key: "k" }, unset: ["aws-token"] }));
	});
});
