import type { ResolvedAuth } from "../../../../src/settings/auth-config";
import { AuthTokens } from "../../../../src/runner/auth/auth-tokens";
import { runAuth, type RunAuthOptions } from "../../../../src/runner/auth/run-auth";
import type { Transport } from "../../../../src/runner/transport";

const kc: ResolvedAuth = { name: "kc", config: { type: "oauth2", grant: "client_credentials", tokenUrl: "http://127.0.0.1:9/token", clientId: "app", pkce: true, persist: false }, secrets: { client_secret: "s" }, unset: [] };
const aws: ResolvedAuth = { name: "aws", config: { type: "aws-sigv4", accessKeyId: "AKID", secretAccessKey: { secret: "aws-secret" }, region: "eu-west-1", service: "s3" }, secrets: { secret_access_key: "SK" }, unset: [] };

/** A transport no test here should reach: the tokens asked for are kept and fresh, or fail before any request. */
const unreachable: Transport = { name: "node", streams: true, send: () => Promise.reject(new Error("no request was expected")) };

function auth(configs: RunAuthOptions["configs"] = { kc, aws }, tokens = new AuthTokens(() => 0)) {
	return { tokens, run: runAuth({ environment: "dev", configs, tokens, transport: () => unreachable }) };
}

describe("runAuth use: what the Auth tab lists of a configuration a request named", () => {
	it.each([
		["an OAuth configuration", "kc", { environment: "dev", name: "kc", grant: "client_credentials" }],
		["an aws-sigv4 configuration (it signs, it keeps no token)", "aws", undefined],
		["a name the environment does not define", "nope", undefined],
	])("%s", (_what, name, expected) => expect(auth().run.use(name)).toEqual(expected));
});

describe("runAuth lookup", () => {
	it("reads the kept access token and ID token of an OAuth configuration", () => {
		const { tokens, run } = auth();
		tokens.restore("dev", "kc", { accessToken: "A", idToken: "I", issuedAt: 0 });
		expect(run.lookup({ name: "kc", which: "token" })).toEqual({ ok: true, value: "A" });
		expect(run.lookup({ name: "kc", which: "idToken" })).toEqual({ ok: true, value: "I" });
	});

	it("reads only the active environment's tokens", () => {
		const { tokens, run } = auth();
		tokens.restore("prod", "kc", { accessToken: "P", issuedAt: 0 });
		expect(run.lookup({ name: "kc", which: "token" })).toEqual({ ok: false, message: 'Unresolved reference {{$auth.token("kc")}}: no token yet for auth "kc": run the block to get one' });
	});

	it("says to ask for openid when the provider gave no ID token", () => {
		const { tokens, run } = auth();
		tokens.restore("dev", "kc", { accessToken: "A", issuedAt: 0 });
		expect(run.lookup({ name: "kc", which: "idToken" })).toMatchObject({ ok: false, message: expect.stringContaining('(ask for scope "openid")') as unknown });
	});

	it("names the configurations the environment defines when the reference names another", () => {
		expect(auth().run.lookup({ name: "nope", which: "token" })).toEqual({ ok: false, message: 'Unresolved reference {{$auth.token("nope")}}: no auth configuration "nope" in environment "dev" (defined: kc, aws)' });
		expect(auth({}).run.lookup({ name: "nope", which: "token" })).toEqual({ ok: false, message: 'Unresolved reference {{$auth.token("nope")}}: no auth configuration "nope" in environment "dev"' });
	});

	it("does not take an inherited property for a configuration", () => {
		expect(auth().run.lookup({ name: "toString", which: "token" })).toMatchObject({ ok: false });
	});

	it("stands an aws-sigv4 token for its credentials to sign with, and refuses its ID token", () => {
		const { run } = auth();
		expect(run.lookup({ name: "aws", which: "token" })).toEqual({ ok: true, value: "AWS AKID SK region:eu-west-1 service:s3" });
		expect(run.lookup({ name: "aws", which: "idToken" })).toMatchObject({ ok: false, message: expect.stringContaining("signs requests and has no ID token") as unknown });
	});

	it("says which secret of an aws-sigv4 configuration is unset", () => {
		const { run } = auth({ aws: { ...aws, secrets: {}, unset: ["aws-secret"] } });
		expect(run.lookup({ name: "aws", which: "token" })).toMatchObject({ ok: false, message: expect.stringContaining('secret "aws-secret" is not set') as unknown });
	});
});

describe("runAuth acquire", () => {
	it("is done when every OAuth configuration named has a fresh token, and skips signing configurations", async () => {
		const { tokens, run } = auth();
		tokens.restore("dev", "kc", { accessToken: "A", issuedAt: 0 });
		await expect(run.acquire(["kc", "aws", "kc"])).resolves.toBeNull();
	});

	it("fails on a configuration the environment does not define", async () => {
		await expect(auth().run.acquire(["aws", "nope"])).resolves.toMatchObject({ code: "auth_failed", message: expect.stringMatching(/^Auth "nope", configuration: no auth configuration "nope"/) as unknown });
	});

	it("gives the first configuration's failure", async () => {
		const { run } = auth({ kc: { ...kc, unset: ["kc-secret"] }, aws });
		await expect(run.acquire(["aws", "kc"])).resolves.toMatchObject({ message: expect.stringContaining('Auth "kc", configuration: secret "kc-secret" is not set') as unknown });
	});
});

describe("runAuth renewable", () => {
	it.each([
		["kc", true],
		["aws", false],
		["nope", false],
	])("a 401 to a request that used %s is worth a new token: %s", (name, expected) => {
		expect(auth().run.renewable(name)).toBe(expected);
	});
});
