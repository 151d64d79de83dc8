/**
 * httpyac's own OAuth2 example (examples/auth/oauth2.http, read as-is from the interop corpus)
 * imported and run against the local OpenID provider, and what reaches the provider compared with
 * what httpyac itself sends for the same file and variables: grant, client authentication, scope,
 * audience, resource, username and password. The grants httpyac runs without a person
 * (client_credentials, password) are compared request for request; authorization_code is run
 * here with the browser driven by a test client and checked against httpyac's source
 * (src/plugins/oauth2/flow/authorizationCodeFlow.ts); implicit is refused, as docs/auth.md says.
 */
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { httpFileToNote, parseNote } from "../../../../src/blocks";
import { interactiveGrants } from "../../../../src/runner/auth/interactive-grants";
import { listenLoopback } from "../../../../src/runner/auth/loopback-redirect";
import type { SignInHost } from "../../../../src/runner/auth/sign-in";
import { createEngine } from "../../../../src/runner/engine";
import { httpFields } from "../../../../src/runner/http/http-run";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { environmentVariables, parseSettings } from "../../../../src/settings/user-settings";
import { httpyacBin } from "../../../support/httpyac";
import { startProvider, type AskedOfProvider, type TestProvider } from "../../../support/oidc";
import { signInWithBrowser } from "../../../support/oidc/browser";

jest.setTimeout(180_000);

// The corpus's file, copied byte for byte into the fixtures (SOURCE.md) so that any clone runs it.
const EXAMPLE = resolve(__dirname, "../../../fixtures/httpyac-oauth2/oauth2.http");
const CORPUS_COPY = resolve(__dirname, "../../../../../shared/interop-corpus/httpyac/examples__auth__oauth2.http");
const ENVIRONMENT = resolve(__dirname, "../../../fixtures/httpyac-oauth2/environment.json");

let provider: TestProvider;
let dir: string;
let variables: Record<string, string>;
beforeAll(async () => {
	httpyacBin();
	provider = await startProvider({ tokenTtlSeconds: 300 });
	dir = mkdtempSync(join(tmpdir(), "rb-httpyac-oauth2-"));
	copyFileSync(EXAMPLE, join(dir, "oauth2.http"));
	const fill = (v: string) =>
		v
			.replace("{issuer}", provider.issuer)
			.replace("{resource}", provider.resource)
			.replace("{clientId}", provider.client.id)
			.replace("{clientSecret}", provider.client.secret)
			.replace("{username}", provider.user.name)
			.replace("{password}", provider.user.password);
	const fixture = JSON.parse(readFileSync(ENVIRONMENT, "utf8")) as Record<string, string>;
	variables = Object.fromEntries(Object.entries(fixture).flatMap(([k, v]) => (k.startsWith("_") ? [] : [[k, fill(v)]])));
});
afterAll(async () => {
	await provider?.stop();
	rmSync(dir, { recursive: true, force: true });
});

/** The example as a note, each request a block under its `# @name`. */
const blocks = () => parseNote(httpFileToNote(readFileSync(EXAMPLE, "utf8"), "oauth2"));
const blockNamed = (name: string) => {
	const found = blocks().find((b) => b.kind === "http" && b.alias === name);
	if (!found) throw new Error(`the example has no request named ${name}`);
	return found;
};

/** An engine over the fixture's variables; a browser prompt is answered by the test's browser. */
function harness() {
	const toml = `[general]\nenvironment = "dev"\n\n[environments.dev]\n${Object.entries(variables).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join("\n")}`;
	const parsed = parseSettings(toml);
	if (!parsed.ok || parsed.errors.length > 0) throw new Error(JSON.stringify(parsed.errors));
	const env = environmentVariables(parsed.settings, "dev", () => undefined);
	const transport = createNodeTransport();
	let acting: Promise<unknown> = Promise.resolve();
	const host: SignInHost = {
		prompt(prompt) {
			if (prompt.kind === "browser") acting = signInWithBrowser(prompt.url, { fields: { login: provider.user.name, password: provider.user.password } });
			return () => undefined;
		},
		listen: (uri) => listenLoopback(uri, { received: "ok", refused: "no" }),
		// Only the sign-in's time limit waits here: it ends with the sign-in.
		wait: (_ms, signal) => new Promise((done) => (signal.aborted ? done() : signal.addEventListener("abort", () => done(), { once: true }))),
	};
	const engine = createEngine({
		transport: () => transport,
		history: () => null,
		environment: () => ({ name: "dev", variables: env.variables, secretValues: env.secretValues, secretNames: env.secretNames, unsetSecretNames: env.unsetSecretNames, auth: env.auth }),
		defaultTimeoutMs: () => 10_000,
		authInteraction: () => interactiveGrants(host),
		close: async () => transport.close(),
	});
	return {
		async run(name: string) {
			const note = blocks();
			try {
				const [run] = await engine.run("oauth2.md", note, [blockNamed(name)]);
				await acting;
				return httpFields(run.result);
			} finally {
				await engine.close();
			}
		},
	};
}

/** The resource's JSON answer. */
const bodyOf = (result: ReturnType<typeof httpFields> | undefined): unknown => JSON.parse(Buffer.from(result?.body ?? "{}").toString());

/** What a client sent to the provider while `act` ran. */
async function askedDuring(act: () => Promise<unknown>): Promise<AskedOfProvider[]> {
	const before = (await provider.asked()).length;
	await act();
	return (await provider.asked()).slice(before);
}

/** httpyac's own run of one request of the example, with the same variables. */
const httpyacSends = (name: string) => promisify(execFile)(httpyacBin(), ["send", "oauth2.http", "--name", name, "--output", "none", "--var", ...Object.entries(variables).map(([k, v]) => `${k}=${v}`)], { cwd: dir, timeout: 120_000 });

/** A token request as the comparison sees it: the fields that carry meaning, and how the client authenticated. */
const tokenRequest = (a: AskedOfProvider) => ({
	fields: Object.fromEntries(["grant_type", "scope", "audience", "resource", "username", "password", "client_id", "client_secret"].flatMap((k) => (a.fields[k] === undefined ? [] : [[k, a.fields[k]]]))),
	basic: a.basic,
});

describe.each(["client_credentials", "password"])("the example's %s request", (grant) => {
	it("reaches the provider with the token request httpyac sends, and the resource with the token bound to the resource", async () => {
		let result: ReturnType<typeof httpFields> | undefined;
		const ours = (await askedDuring(async () => (result = await harness().run(grant)))).filter((a) => a.path === "/token");
		const theirs = (await askedDuring(() => httpyacSends(grant))).filter((a) => a.path === "/token");
		expect(result?.error).toBeUndefined();
		expect(result?.head?.status).toBe(200);
		expect(ours).toHaveLength(1);
		expect(theirs).toHaveLength(1);
		expect(tokenRequest(ours[0])).toEqual(tokenRequest(theirs[0]));
		// What both send, spelled out: the grant, HTTP Basic, the audience and the resource.
		expect(tokenRequest(ours[0])).toMatchObject({ fields: { grant_type: grant, audience: variables.local_audience, resource: variables.local_resource }, basic: `${provider.client.id}:${provider.client.secret}` });
		if (grant === "client_credentials") expect(bodyOf(result)).toMatchObject({ aud: variables.local_resource });
	});
});

describe("the example's authorization_code request", () => {
	it("signs in with what httpyac's flow asks for (scope openid, audience, resource) and redeems the code with the resource", async () => {
		let result: ReturnType<typeof httpFields> | undefined;
		const asked = await askedDuring(async () => (result = await harness().run("authorization_code")));
		expect(result?.error).toBeUndefined();
		expect(result?.head?.status).toBe(200);
		expect(bodyOf(result)).toMatchObject({ aud: variables.local_resource });
		const signIn = asked.find((a) => a.path === "/auth");
		expect(signIn?.fields).toMatchObject({ client_id: provider.client.id, response_type: "code", scope: "openid", audience: variables.local_audience, resource: variables.local_resource, code_challenge_method: "S256" });
		const token = asked.filter((a) => a.path === "/token");
		expect(token).toHaveLength(1);
		// httpyac sends scope=opendid (sic) and no resource here; we send the resource (RFC 8707 §2.2) and no scope.
		expect(tokenRequest(token[0])).toEqual({ fields: { grant_type: "authorization_code", resource: variables.local_resource }, basic: `${provider.client.id}:${provider.client.secret}` });
	});
});

describe("the example's implicit request", () => {
	it("is refused before anything is sent: the implicit grant is not supported (docs/auth.md)", async () => {
		let result: ReturnType<typeof httpFields> | undefined;
		const asked = await askedDuring(async () => (result = await harness().run("implicit")));
		expect(result?.error?.message).toContain('grant "implicit" is not supported');
		expect(asked).toEqual([]);
	});
});

// Only where the interop corpus sits next to the repository (a clone elsewhere has the copy alone).
(existsSync(CORPUS_COPY) ? it : it.skip)("runs the corpus's file itself: the fixture is a byte-for-byte copy", () => {
	expect(readFileSync(EXAMPLE).equals(readFileSync(CORPUS_COPY))).toBe(true);
});
