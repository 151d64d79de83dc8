/**
 * OAuth 2.0 through the engine against a real OpenID provider (oidc-provider on 127.0.0.1):
 * tokens fetched in the prepare step, kept, renewed before they expire (a clock the test moves),
 * renewed once on a 401, and never written anywhere.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNote } from "../../../../src/blocks";
import { nodeStorage } from "../../../../src/cli/node-storage";
import { DeferredHistory } from "../../../../src/runner/deferred-history";
import { createEngine, type Engine } from "../../../../src/runner/engine";
import { HistoryStore } from "../../../../src/runner/history-store";
import { httpFields } from "../../../../src/runner/http/http-run";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { requestForFile, shownRequest } from "../../../../src/runner/request";
import { toHttpFile } from "../../../../src/runner/snippets/generators";
import { environmentVariables, parseSettings } from "../../../../src/settings/user-settings";
import { startProvider, type TestProvider } from "../../../support/oidc";

jest.setTimeout(60_000);

let provider: TestProvider;
let dir: string;
beforeAll(async () => {
	provider = await startProvider({ tokenTtlSeconds: 300 });
	dir = mkdtempSync(join(tmpdir(), "rb-oauth-"));
});
afterAll(async () => {
	await provider.stop();
	rmSync(dir, { recursive: true, force: true });
});

/** user.toml with the configurations these tests use; `overrides` replace keys of `kc`. */
function userToml(overrides: Record<string, string> = {}): string {
	const kc: Record<string, string> = { type: '"oauth2"', grant: '"client_credentials"', token_url: `"${provider.issuer}/token"`, client_id: `"${provider.client.id}"`, client_secret: '{ secret = "kc-secret" }', ...overrides };
	return [
		'[general]\nenvironment = "dev"',
		`[environments.dev]\napi = "${provider.resource}"`,
		`[environments.dev.auth.kc]\n${Object.entries(kc).map(([k, v]) => `${k} = ${v}`).join("\n")}`,
		`[environments.dev.auth.user]\ntype = "oauth2"\ngrant = "password"\nissuer = "${provider.issuer}"\nclient_id = "${provider.client.id}"\nclient_secret = { secret = "kc-secret" }\nusername = "${provider.user.name}"\npassword = { secret = "user-password" }\nscope = "openid offline_access"`,
	].join("\n\n");
}

interface Harness {
	engine: Engine;
	clock: { now: number };
	run(note: string): Promise<ReturnType<typeof httpFields>>;
	close(): Promise<void>;
}

/** An engine with the real node transport, history in `dir`, secrets from a map, and a clock the test moves. */
function harness(toml = userToml(), secrets: Record<string, string> = { "kc-secret": provider.client.secret, "user-password": provider.user.password }): Harness {
	const parsed = parseSettings(toml);
	if (!parsed.ok || parsed.errors.length > 0) throw new Error(JSON.stringify(parsed.errors));
	const settings = parsed.settings;
	const transport = createNodeTransport();
	const history = new DeferredHistory(() => HistoryStore.open(nodeStorage, join(dir, "history.sqlite")), () => undefined);
	const clock = { now: Date.now() };
	const env = environmentVariables(settings, "dev", (id) => secrets[id]);
	const engine = createEngine({
		transport: () => transport,
		history: () => history,
		environment: () => ({ name: "dev", variables: env.variables, secretValues: env.secretValues, secretNames: env.secretNames, unsetSecretNames: env.unsetSecretNames, auth: env.auth }),
		defaultTimeoutMs: () => 10_000,
		clock: () => clock.now,
		close: async () => {
			transport.close();
			await history.close();
		},
	});
	return {
		engine,
		clock,
		async run(text) {
			const note = parseNote(text);
			const [run] = await engine.run("auth.md", note, note);
			return httpFields(run.result);
		},
		close: () => engine.close(),
	};
}

const block = (name: string, path = "/api") => `\`\`\`http\nGET {{api}}${path}\nAuthorization: Bearer {{$auth.token("${name}")}}\n\`\`\``;

describe("client credentials", () => {
	it("fetches a token before the request, sends it, and shows it masked", async () => {
		const h = harness();
		try {
			const result = await h.run(block("kc"));
			expect(result.error).toBeUndefined();
			expect(result.head?.status).toBe(200);
			const token = h.engine.auth.current("dev", "kc")?.accessToken ?? "";
			expect(token.length).toBeGreaterThan(10);
			expect(result.request?.headers).toContainEqual(["Authorization", `Bearer ${token}`]);
			expect(shownRequest(result.request!).headers).toContainEqual(["Authorization", "Bearer •••"]);
			// A .http export writes the reference back, never the token.
			const exported = toHttpFile([{ request: requestForFile(result.request!) }]);
			expect(exported).toContain('{{$auth.token("kc")}}');
			expect(exported).not.toContain(token);
		} finally {
			await h.close();
		}
	});

	it("keeps the token while it is fresh and gets a new one before it expires", async () => {
		const h = harness();
		try {
			await h.run(block("kc"));
			const first = h.engine.auth.current("dev", "kc")!;
			await h.run(block("kc"));
			expect(h.engine.auth.current("dev", "kc")?.accessToken).toBe(first.accessToken);
			// 300 s tokens are renewed once less than 30 s remain.
			h.clock.now = first.expiresAt! - 20_000;
			const result = await h.run(block("kc"));
			expect(result.head?.status).toBe(200);
			expect(h.engine.auth.current("dev", "kc")?.accessToken).not.toBe(first.accessToken);
		} finally {
			await h.close();
		}
	});

	it("export puts in the current token, and says to run first when there is none", async () => {
		const h = harness();
		try {
			const note = parseNote(block("kc"));
			const before = h.engine.prepare("auth.md", note, note[0]);
			expect(before.ok).toBe(false);
			if (!before.ok) expect(before.error.message).toBe('Unresolved reference {{$auth.token("kc")}}: no token yet for auth "kc": run the block to get one');
			await h.run(block("kc"));
			const after = h.engine.prepare("auth.md", note, note[0]);
			expect(after.ok && after.request.headers).toContainEqual(["Authorization", `Bearer ${h.engine.auth.current("dev", "kc")?.accessToken}`]);
		} finally {
			await h.close();
		}
	});
});

describe("refresh", () => {
	it("refreshes a password grant's token before it expires", async () => {
		const h = harness();
		try {
			const got = await h.run(block("user"));
			expect(got.error).toBeUndefined();
			expect(got.head?.status).toBe(200);
			const first = h.engine.auth.current("dev", "user")!;
			expect(first.refreshToken).toBeDefined();
			expect(first.idToken).toBeUndefined();
			h.clock.now = first.expiresAt! - 1_000;
			expect((await h.run(block("user"))).head?.status).toBe(200);
			const second = h.engine.auth.current("dev", "user")!;
			expect(second.accessToken).not.toBe(first.accessToken);
			// Only the provider's refresh answer carries an ID token (the test's password grant gives none): it was a refresh.
			expect(second.idToken).toBeDefined();
			expect(second.refreshToken).toBeDefined();
		} finally {
			await h.close();
		}
	});

	it("after a revoked refresh token, a grant that needs no person is asked again", async () => {
		const h = harness();
		try {
			await h.run(block("user"));
			const first = h.engine.auth.current("dev", "user")!;
			await provider.revoke(first.refreshToken!, "refresh_token");
			h.clock.now = first.expiresAt! + 1_000;
			const result = await h.run(block("user"));
			expect(result.error).toBeUndefined();
			expect(result.head?.status).toBe(200);
			expect(h.engine.auth.current("dev", "user")?.refreshToken).not.toBe(first.refreshToken);
		} finally {
			await h.close();
		}
	});
});

describe("a 401 to a request that used $auth.token", () => {
	it("gets one new token and retries once", async () => {
		const h = harness();
		try {
			await h.run(block("kc"));
			const revoked = h.engine.auth.current("dev", "kc")!.accessToken;
			await provider.revoke(revoked, "access_token");
			const calls = await provider.calls();
			const result = await h.run(block("kc"));
			expect(result.head?.status).toBe(200);
			expect(h.engine.auth.current("dev", "kc")?.accessToken).not.toBe(revoked);
			// The refused request and its one retry.
			expect((await provider.calls()) - calls).toBe(2);
		} finally {
			await h.close();
		}
	});

	it("never loops: a resource that refuses every token is asked twice, and its 401 is the result", async () => {
		const h = harness();
		try {
			const calls = await provider.calls();
			const result = await h.run(block("kc", "/deny"));
			expect(result.head?.status).toBe(401);
			expect((await provider.calls()) - calls).toBe(2);
		} finally {
			await h.close();
		}
	});
});

describe("errors name the configuration and the step, in one line", () => {
	it.each([
		["a wrong client secret", {}, { "kc-secret": "wrong", "user-password": "x" }, /^Auth "kc", token request: the provider refused the client \(invalid_client.*\)\. Check client_id and the client_secret secret$/],
		["a wrong token URL", { token_url: '"ISSUER/nowhere"' }, undefined, /^Auth "kc", token request: ISSUER\/nowhere answered HTTP 404, not an OAuth response\. Check the endpoint URL$/],
		["an unreachable issuer", { issuer: '"http://127.0.0.1:9"', token_url: undefined }, undefined, /^Auth "kc", discovery: could not reach http:\/\/127\.0\.0\.1:9 \(Failed to connect.*\)\. Check the URL and that the identity provider is running$/],
		["an unset secret", {}, { "user-password": "x" }, /^Auth "kc", configuration: secret "kc-secret" is not set\. Give it a value/],
	] as const)("%s", async (_what, overrides, secrets, expected) => {
		const o = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined).map(([k, v]) => [k, (v as string).replace("ISSUER", provider.issuer)]));
		let toml = userToml(o);
		if ("token_url" in overrides && overrides.token_url === undefined) toml = toml.replace(/^token_url = .*\n/m, "");
		const h = harness(toml, secrets ?? undefined);
		try {
			const result = await h.run(block("kc"));
			expect(result.state).toBe("failed");
			expect(result.error?.code).toBe("auth_failed");
			expect(result.error?.message).toMatch(new RegExp(expected.source.replace("ISSUER", provider.issuer.replace(/[.:/]/g, "\\$&"))));
			expect(result.error?.message).not.toContain("\n");
		} finally {
			await h.close();
		}
	});
});

describe("secrets and tokens are written nowhere", () => {
	it("history and every file written hold no token, client secret or password", async () => {
		const h = harness();
		const seen: string[] = [provider.client.secret, provider.user.password];
		try {
			await h.run(block("kc"));
			await h.run(block("user"));
			seen.push(...h.engine.auth.values());
			const rows = await h.engine.listHistory("auth.md", parseNote(block("kc"))[0]);
			expect(rows.length).toBeGreaterThan(0);
			expect(JSON.stringify(rows)).not.toMatch(new RegExp(seen.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")));
		} finally {
			await h.close();
		}
		expect(seen.length).toBeGreaterThanOrEqual(5);
		for (const file of filesUnder(dir)) {
			const bytes = readFileSync(file).toString("latin1");
			for (const secret of seen) expect(bytes.includes(secret)).toBe(false);
		}
	});
});

function filesUnder(root: string): string[] {
	return readdirSync(root).flatMap((name) => {
		const path = join(root, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}
