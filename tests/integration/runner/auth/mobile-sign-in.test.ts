/**
 * Authorization code on mobile, through the engine against the real OpenID provider: no loopback
 * server, the provider redirects to `obsidian://runnable-blocks-auth?code=…&state=…`, and that
 * link, as Obsidian's protocol handler receives it, is fed into the plugin's redirect source
 * (ProtocolRedirects). The person at the browser is an HTTP client filling in the provider's
 * forms; the time limit waits on the test, nothing sleeps.
 */
import { parseNote } from "../../../../src/blocks";
import { createEngine } from "../../../../src/runner/engine";
import { httpFields } from "../../../../src/runner/http/http-run";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { interactiveGrants } from "../../../../src/runner/auth/interactive-grants";
import { ProtocolRedirects } from "../../../../src/runner/auth/protocol-redirect";
import type { SignInHost, SignInPrompt } from "../../../../src/runner/auth/sign-in";
import { environmentVariables, parseSettings } from "../../../../src/settings/user-settings";
import { startProvider, type TestProvider } from "../../../support/oidc";
import { signInWithBrowser } from "../../../support/oidc/browser";

jest.setTimeout(60_000);

let provider: TestProvider;
beforeAll(async () => {
	provider = await startProvider();
});
afterAll(() => provider.stop());

/** Obsidian's protocol data for a link: its action (the host part) and each query parameter. */
function protocolData(link: string): Record<string, string> {
	const url = new URL(link);
	return { action: url.hostname, ...Object.fromEntries(url.searchParams) };
}

/**
 * A phone: the prompt opens the browser, whose last redirect (an obsidian:// link) goes to the
 * protocol handler; `browse` is what the person does there. The time limit ends only when `expire` says.
 */
function phone(browse: (url: string) => Promise<string | null>, expire = false) {
	const redirects = new ProtocolRedirects();
	const prompts: SignInPrompt[] = [];
	const delivered: boolean[] = [];
	const host: SignInHost = {
		prompt(prompt) {
			prompts.push(prompt);
			if (prompt.kind === "browser") void browse(prompt.url).then((link) => link && delivered.push(redirects.deliver(protocolData(link))));
			return () => undefined;
		},
		listen: () => Promise.resolve(redirects.listen()),
		wait: (_ms, signal) => (expire ? Promise.resolve() : new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }))),
	};
	const toml = `[general]\nenvironment = "dev"\n\n[environments.dev]\napi = "${provider.resource}"\n\n[environments.dev.auth.web]\ntype = "oauth2"\ngrant = "authorization_code"\nissuer = "${provider.issuer}"\nclient_id = "${provider.client.id}"\nclient_secret = { secret = "kc-secret" }\nscope = "openid offline_access"\n`;
	const parsed = parseSettings(toml);
	if (!parsed.ok) throw new Error("user.toml did not parse");
	const env = environmentVariables(parsed.settings, "dev", (id) => (id === "kc-secret" ? provider.client.secret : undefined));
	const transport = createNodeTransport();
	const engine = createEngine({
		transport: () => transport,
		history: () => null,
		environment: () => ({ name: "dev", variables: env.variables, secretValues: [], secretNames: [], unsetSecretNames: [], auth: env.auth }),
		defaultTimeoutMs: () => 10_000,
		authInteraction: () => interactiveGrants(host),
		close: async () => transport.close(),
	});
	const note = parseNote('```http\nGET {{api}}/api\nAuthorization: Bearer {{$auth.token("web")}}\n```');
	return {
		engine,
		prompts,
		delivered,
		redirects,
		run: async () => httpFields((await engine.run("auth.md", note, note))[0].result),
	};
}

const signIn = async (url: string) => (await signInWithBrowser(url, { fields: { login: provider.user.name, password: provider.user.password } })).url;

describe("authorization code on mobile: the redirect through Obsidian's protocol handler", () => {
	it("sends the browser to the provider with the obsidian:// redirect URI, exchanges the code with PKCE, and runs the block", async () => {
		const p = phone(signIn);
		try {
			const result = await p.run();
			expect(result.error).toBeUndefined();
			expect(result.head?.status).toBe(200);
			const asked = new URL((p.prompts[0] as { url: string }).url).searchParams;
			expect(asked.get("redirect_uri")).toBe("obsidian://runnable-blocks-auth");
			expect(asked.get("code_challenge_method")).toBe("S256");
			expect(p.delivered).toEqual([true]);
			expect(p.engine.auth.current("dev", "web")?.idToken).toBeDefined();
			// The sign-in has ended: a link opened again finds no one waiting.
			expect(p.redirects.deliver({ action: "runnable-blocks-auth", code: "again", state: asked.get("state") ?? "" })).toBe(false);
		} finally {
			await p.engine.close();
		}
	});

	it("refuses a link that carries another state, with the desktop's one-line error", async () => {
		const p = phone(async (url) => {
			await signIn(url);
			return "obsidian://runnable-blocks-auth?code=forged&state=not-the-one-sent";
		});
		try {
			const result = await p.run();
			expect(result.error?.message).toBe("Auth \"web\", authorization: the browser returned with another sign-in's state (a stale or forged redirect). Run the block again");
			expect(p.engine.auth.current("dev", "web")).toBeUndefined();
		} finally {
			await p.engine.close();
		}
	});

	it("ends when the time limit runs out, with the desktop's one-line error", async () => {
		const p = phone(() => Promise.resolve(null), true);
		try {
			expect((await p.run()).error?.message).toBe('Auth "web", authorization: nobody finished the sign-in within 5 minutes. Run the block again and finish the sign-in in the browser');
		} finally {
			await p.engine.close();
		}
	});
});
