import { readFileSync } from "node:fs";
import { join } from "node:path";
import { jetbrainsAuthImport, writeAuthImport } from "../../../src/settings/jetbrains-auth";
import { parseSettings } from "../../../src/settings/user-settings";

const FIXTURE = join(__dirname, "../../fixtures/jetbrains-env");
const envFile = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURE, name), "utf8"));
const imported = () => jetbrainsAuthImport(envFile("http-client.env.json"), envFile("http-client.private.env.json"));
const PLAIN_SECRETS = ["dev-ci-secret-value", "test-secret-value", "robot-password-value"];

describe("jetbrainsAuthImport: JetBrains Security.Auth as [environments.<env>.auth.<name>]", () => {
	it("maps each OAuth2 configuration as far as it maps, filling {{variables}} from the env files", () => {
		const configs = Object.fromEntries(imported().configs.map((c) => [`${c.env}.${c.name}`, Object.fromEntries(c.values)]));
		expect(configs).toEqual({
			"dev.service": {
				type: "oauth2",
				grant: "client_credentials",
				token_url: "https://id.example.com/realms/notes/protocol/openid-connect/token",
				client_id: "notes-ci",
				client_auth: "post",
				scope: "api",
				audience: "https://api.example.com",
				resource: ["https://api.example.com/v1", "https://api.example.com/v2"],
				client_secret: { secret: "dev-service-client-secret" },
			},
			"dev.browser": {
				type: "oauth2",
				grant: "authorization_code",
				auth_url: "https://id.example.com/realms/notes/protocol/openid-connect/auth",
				token_url: "https://id.example.com/realms/notes/protocol/openid-connect/token",
				redirect_uri: "http://localhost:8765/callback",
				client_id: "notes-web",
				scope: "openid profile",
				pkce: true,
			},
			"dev.tv": { type: "oauth2", grant: "device_code", device_url: "https://id.example.com/realms/notes/protocol/openid-connect/auth/device", token_url: "https://id.example.com/realms/notes/protocol/openid-connect/token" },
			"test.robot": { type: "oauth2", grant: "password", token_url: "https://id.test.example.com/token", client_id: "notes", username: "robot", client_secret: { secret: "test-robot-client-secret" }, password: { secret: "test-robot-password" } },
		});
	});

	it("never carries a secret's value: it names the secret ids to fill in", () => {
		const result = imported();
		expect(JSON.stringify(result)).not.toMatch(new RegExp(PLAIN_SECRETS.join("|")));
		expect(result.secrets).toEqual([
			{ env: "dev", name: "service", key: "client_secret", id: "dev-service-client-secret" },
			{ env: "test", name: "robot", key: "client_secret", id: "test-robot-client-secret" },
			{ env: "test", name: "robot", key: "password", id: "test-robot-password" },
		]);
	});

	it("says, key by key, what it did not carry over and why", () => {
		expect(imported().notes.map((n) => `${n.env}.${n.name} ${n.key}: ${n.message}`)).toEqual([
			"dev.service Custom Request Parameters.prompt: custom request parameters other than audience and resource are not supported: not carried over",
			'dev.browser PKCE.Code Challenge Method: "Plain" is not supported: S256 is always used',
			"dev.browser PKCE.Code Verifier: a fixed verifier is not supported: a new one is made for each sign-in",
			'dev.browser Use ID Token: write {{$auth.idToken("browser")}} where the requests use {{$auth.token("browser")}}',
			"dev.browser Acquire Automatically: is not supported: a token is always fetched when a block needs one",
			"dev.tv Client ID: uses {{tv_client}}, which the env files do not define: not carried over, write it in user.toml",
			'dev.legacy Grant Type: "Implicit" is not supported (use Client Credentials, Password, Authorization Code, Device Authorization): the configuration was skipped',
			'test.robot Redirect URL: "https://app.example.com/cb" is not a loopback address (http://127.0.0.1, [::1] or localhost): the default loopback redirect is used; register it with the provider',
		]);
	});

	it.each([
		[{ Type: "Basic", Username: "x" }, 'Type: "Basic" is not supported (only OAuth2): the configuration was skipped'],
		[{ Type: "OAuth2", "Grant Type": "Client Credentials", "Token URL": "https://x/t", "Client ID": "c", "Client Credentials": "none", "Client Secret": "s" }, 'Client Secret: is not sent ("Client Credentials": "none"): not carried over'],
		[{ Type: "OAuth2", "Grant Type": "Client Credentials", "Token URL": "https://x/t", "Client ID": "c", Scopes: "api" }, "Scopes: is not supported: not carried over"],
	])("notes %j", (auth, note) => {
		const result = jetbrainsAuthImport({ dev: { Security: { Auth: { a: auth } } } });
		expect(result.notes.map((n) => `${n.key}: ${n.message}`)).toContain(note);
	});
});

describe("writeAuthImport", () => {
	it("adds tables that user.toml reads as valid configurations, keeping what was there", () => {
		const before = '# mine\n[general]\nenvironment = "dev"\n\n[environments.dev]\nbase_url = "https://api.example.com"\n';
		const written = writeAuthImport(before, imported());
		if (!written.ok) throw new Error(written.message);
		expect(written.text.startsWith(before)).toBe(true);
		expect(written.text).not.toMatch(new RegExp(PLAIN_SECRETS.join("|")));
		const parsed = parseSettings(written.text);
		if (!parsed.ok) throw new Error("does not parse");
		// dev.tv lacks its client_id (a variable the env files do not define): user.toml says so at its line.
		expect(parsed.errors.map((e) => e.key)).toEqual(["environments.dev.auth.tv.client_id"]);
		expect(parsed.settings.auth.dev.service).toMatchObject({ grant: "client_credentials", clientAuth: "post", audience: "https://api.example.com", resource: ["https://api.example.com/v1", "https://api.example.com/v2"], clientSecret: { secret: "dev-service-client-secret" } });
		expect(Object.keys(parsed.settings.auth.test)).toEqual(["robot"]);
	});

	it("never overwrites a configuration of the same environment and name", () => {
		const before = '[environments.dev.auth.service]\ntype = "oauth2"\ngrant = "client_credentials"\ntoken_url = "https://mine/t"\nclient_id = "mine"\n';
		const written = writeAuthImport(before, imported());
		if (!written.ok) throw new Error(written.message);
		expect(written.kept.map((c) => `${c.env}.${c.name}`)).toEqual(["dev.service"]);
		expect(written.text.startsWith(before)).toBe(true);
		expect(written.text.match(/\[environments\.dev\.auth\.service\]/g)).toHaveLength(1);
	});

	it("leaves a user.toml that does not parse unchanged, saying why", () => {
		expect(writeAuthImport("[general\n", imported())).toMatchObject({ ok: false, message: expect.stringContaining("user.toml does not parse, so it was not changed") as unknown });
	});
});
