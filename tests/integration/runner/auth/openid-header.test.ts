/**
 * httpyac's `Authorization: openid <grant> <prefix>` through the engine against a real OpenID
 * provider (oidc-provider on 127.0.0.1): the `<prefix>_*` variables of user.toml (secrets among
 * them) become the configuration, the token is sent as Bearer, kept, masked, and renewed on a 401.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNote } from "../../../../src/blocks";
import { nodeStorage } from "../../../../src/cli/node-storage";
import { DeferredHistory } from "../../../../src/runner/deferred-history";
import { createEngine } from "../../../../src/runner/engine";
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
let engines = 0;
beforeAll(async () => {
	provider = await startProvider({ tokenTtlSeconds: 300 });
	dir = mkdtempSync(join(tmpdir(), "rb-openid-"));
});
afterAll(async () => {
	await provider.stop();
	rmSync(dir, { recursive: true, force: true });
});

/** An engine whose dev environment holds httpyac-style `local_*` variables, with no auth table in user.toml. */
function harness(omit?: string) {
	const vars: Record<string, string> = {
		api: `"${provider.resource}"`,
		local_tokenEndpoint: `"${provider.issuer}/token"`,
		local_clientId: `"${provider.client.id}"`,
		local_clientSecret: '{ secret = "kc-secret" }',
		local_username: `"${provider.user.name}"`,
		local_password: '{ secret = "user-password" }',
	};
	if (omit) delete vars[omit];
	const parsed = parseSettings(`[general]\nenvironment = "dev"\n\n[environments.dev]\n${Object.entries(vars).map(([k, v]) => `${k} = ${v}`).join("\n")}`);
	if (!parsed.ok || parsed.errors.length > 0) throw new Error(JSON.stringify(parsed.errors));
	const secrets: Record<string, string> = { "kc-secret": provider.client.secret, "user-password": provider.user.password };
	const env = environmentVariables(parsed.settings, "dev", (id) => secrets[id]);
	const transport = createNodeTransport();
	const history = new DeferredHistory(() => HistoryStore.open(nodeStorage, join(dir, `history-${++engines}.sqlite`)), () => undefined);
	const engine = createEngine({
		transport: () => transport,
		history: () => history,
		environment: () => ({ name: "dev", variables: env.variables, secretValues: env.secretValues, secretNames: env.secretNames, unsetSecretNames: env.unsetSecretNames, auth: env.auth }),
		defaultTimeoutMs: () => 10_000,
		close: async () => {
			transport.close();
			await history.close();
		},
	});
	return {
		engine,
		async run(text: string) {
			const note = parseNote(text);
			const [run] = await engine.run("openid.md", note, note);
			return httpFields(run.result);
		},
	};
}

const block = (grant: string, path = "/api") => `\`\`\`http\nGET {{api}}${path}\nAuthorization: openid ${grant} local\n\`\`\``;

describe.each(["client_credentials", "password"])("Authorization: openid %s local", (grant) => {
	it("gets a token from the local_* variables, sends it as Bearer, and shows and exports no token", async () => {
		const h = harness();
		try {
			const result = await h.run(block(grant));
			expect(result.error).toBeUndefined();
			expect(result.head?.status).toBe(200);
			const token = h.engine.auth.current("dev", `openid ${grant} local`)?.accessToken ?? "";
			expect(token.length).toBeGreaterThan(10);
			expect(result.request?.headers).toContainEqual(["Authorization", `Bearer ${token}`]);
			expect(shownRequest(result.request!).headers).toContainEqual(["Authorization", "Bearer •••"]);
			const exported = toHttpFile([{ request: requestForFile(result.request!) }]);
			expect(exported).toContain(`Authorization: openid ${grant} local`);
			expect(exported).not.toContain(token);
			expect(h.engine.auth.values()).toContain(token);
		} finally {
			await h.engine.close();
		}
	});
});

it("keeps the token, and after a 401 gets one new token and retries once", async () => {
	const h = harness();
	try {
		await h.run(block("client_credentials"));
		const first = h.engine.auth.current("dev", "openid client_credentials local")!.accessToken;
		await h.run(block("client_credentials"));
		expect(h.engine.auth.current("dev", "openid client_credentials local")?.accessToken).toBe(first);
		await provider.revoke(first, "access_token");
		const calls = await provider.calls();
		const result = await h.run(block("client_credentials"));
		expect(result.head?.status).toBe(200);
		expect(h.engine.auth.current("dev", "openid client_credentials local")?.accessToken).not.toBe(first);
		expect((await provider.calls()) - calls).toBe(2);
	} finally {
		await h.engine.close();
	}
});

it("a missing variable fails the block before anything is sent, naming it", async () => {
	const h = harness("local_clientId");
	try {
		const calls = await provider.calls();
		const result = await h.run(block("client_credentials"));
		expect(result.error?.message).toContain("needs the variable local_clientId");
		expect(await provider.calls()).toBe(calls);
	} finally {
		await h.engine.close();
	}
});
