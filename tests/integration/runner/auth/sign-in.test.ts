/**
 * The grants that need a person, through the engine against a real OpenID provider
 * (oidc-provider on 127.0.0.1): authorization code with PKCE through the real loopback redirect,
 * and the device code, each with the browser step driven by an HTTP client that fills in the
 * provider's own login and consent forms. The time limit and the device polling wait on a clock
 * the test holds: nothing sleeps.
 */
import { parseNote } from "../../../../src/blocks";
import { createEngine } from "../../../../src/runner/engine";
import { httpFields } from "../../../../src/runner/http/http-run";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { interactiveGrants } from "../../../../src/runner/auth/interactive-grants";
import { listenLoopback } from "../../../../src/runner/auth/loopback-redirect";
import type { SignInHost, SignInPrompt } from "../../../../src/runner/auth/sign-in";
import { environmentVariables, parseSettings } from "../../../../src/settings/user-settings";
import { startProvider, type TestProvider } from "../../../support/oidc";
import { signInWithBrowser, type BrowserOptions, type Page } from "../../../support/oidc/browser";

jest.setTimeout(60_000);

let provider: TestProvider;
beforeAll(async () => {
	provider = await startProvider({ tokenTtlSeconds: 300 });
});
afterAll(() => provider.stop());

const PAGES = { received: "Signed in: back to the note.", refused: "The sign-in was refused." };

/** user.toml with an authorization_code configuration `web` and a device_code configuration `tv`. */
function userToml(web: Record<string, string> = {}): string {
	const table = (name: string, keys: Record<string, string>) => `[environments.dev.auth.${name}]\n${Object.entries(keys).map(([k, v]) => `${k} = ${v}`).join("\n")}`;
	const common = { type: '"oauth2"', issuer: `"${provider.issuer}"`, client_id: `"${provider.client.id}"`, client_secret: '{ secret = "kc-secret" }', scope: '"openid offline_access"' };
	return ['[general]\nenvironment = "dev"', `[environments.dev]\napi = "${provider.resource}"`, table("web", { ...common, grant: '"authorization_code"', ...web }), table("tv", { ...common, grant: '"device_code"' })].join("\n\n");
}

/**
 * The person: what they do when a prompt appears (sign in with the browser, by default), and the
 * waits the grants ask for (polling, the time limit), which the test releases.
 */
interface Person {
	prompts: SignInPrompt[];
	pages: Page[];
	waits: number[];
	/** What the person does with a prompt; resolves once done. */
	act(prompt: SignInPrompt, cancel: () => void): Promise<void>;
	/** Whether a wait of the grant ends at once (a poll) or only on abort (the browser's time limit). */
	waitEnds(ms: number): boolean;
}

function person(browser: BrowserOptions = { fields: { login: provider.user.name, password: provider.user.password } }): Person {
	const p: Person = {
		prompts: [],
		pages: [],
		waits: [],
		async act(prompt) {
			const url = prompt.kind === "browser" ? prompt.url : prompt.verificationUri;
			const fields = prompt.kind === "device" ? { ...browser.fields, user_code: prompt.userCode } : browser.fields;
			p.pages.push(await signInWithBrowser(url, { ...browser, fields }));
		},
		// The browser's time limit never runs out unless a test says so; a device poll waits until the person is done.
		waitEnds: (ms) => ms < 60_000,
	};
	return p;
}

function harness(who: Person, toml = userToml()) {
	const parsed = parseSettings(toml);
	if (!parsed.ok || parsed.errors.length > 0) throw new Error(JSON.stringify(parsed.errors));
	const transport = createNodeTransport();
	const clock = { now: Date.now() };
	const env = environmentVariables(parsed.settings, "dev", (id) => (id === "kc-secret" ? provider.client.secret : undefined));
	let acting: Promise<void> = Promise.resolve();
	const host: SignInHost = {
		prompt(prompt, cancel) {
			who.prompts.push(prompt);
			acting = who.act(prompt, cancel);
			return () => undefined;
		},
		listen: (uri) => listenLoopback(uri, PAGES),
		// A poll waits until the person has finished; the time limit waits for an abort, unless the test ends it.
		wait: (ms, signal) => {
			who.waits.push(ms);
			if (who.waitEnds(ms)) return acting.catch(() => undefined);
			return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
		},
	};
	const engine = createEngine({
		transport: () => transport,
		history: () => null,
		environment: () => ({ name: "dev", variables: env.variables, secretValues: env.secretValues, secretNames: env.secretNames, unsetSecretNames: env.unsetSecretNames, auth: env.auth }),
		defaultTimeoutMs: () => 10_000,
		clock: () => clock.now,
		authInteraction: () => interactiveGrants(host),
		close: async () => transport.close(),
	});
	return {
		engine,
		clock,
		/** Resolves once the person is done with the last prompt (the browser has read its last page). */
		settled: () => acting,
		async run(text: string, signal?: AbortSignal) {
			const note = parseNote(text);
			const [run] = await engine.run("auth.md", note, note, { signal });
			return httpFields(run.result);
		},
	};
}

const block = (name: string) => `\`\`\`http\nGET {{api}}/api\nAuthorization: Bearer {{$auth.token("${name}")}}\n\`\`\``;

describe("authorization code with PKCE", () => {
	it("signs in through the browser and the loopback redirect, sends the token, and refreshes it later", async () => {
		const who = person();
		const h = harness(who);
		try {
			const result = await h.run(block("web"));
			expect(result.error).toBeUndefined();
			expect(result.head?.status).toBe(200);
			// The browser was sent to the provider with a PKCE challenge and a state, back to a loopback port.
			const prompt = who.prompts[0];
			if (prompt.kind !== "browser") throw new Error("expected a browser prompt");
			const asked = new URL(prompt.url).searchParams;
			expect(asked.get("code_challenge_method")).toBe("S256");
			expect(asked.get("code_challenge")).toMatch(/^[\w-]{43}$/);
			expect(asked.get("state")).toMatch(/^[\w-]{20,}$/);
			expect(asked.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
			await h.settled();
			expect(who.pages[0]).toMatchObject({ status: 200, body: PAGES.received });
			const first = h.engine.auth.current("dev", "web")!;
			expect(first.idToken).toBeDefined();
			expect(first.refreshToken).toBeDefined();
			// Close to expiry the refresh token renews it, with no second sign-in.
			h.clock.now = first.expiresAt! - 1_000;
			expect((await h.run(block("web"))).head?.status).toBe(200);
			expect(h.engine.auth.current("dev", "web")?.accessToken).not.toBe(first.accessToken);
			expect(who.prompts).toHaveLength(1);
		} finally {
			await h.engine.close();
		}
	});

	it("listens on the port redirect_uri names", async () => {
		const probe = await listenLoopback("http://127.0.0.1/callback", PAGES);
		const port = new URL(probe.redirectUri).port;
		probe.close();
		const who = person();
		const h = harness(who, userToml({ redirect_uri: `"http://127.0.0.1:${port}/callback"` }));
		try {
			expect((await h.run(block("web"))).head?.status).toBe(200);
			expect(new URL((who.prompts[0] as { url: string }).url).searchParams.get("redirect_uri")).toBe(`http://127.0.0.1:${port}/callback`);
		} finally {
			await h.engine.close();
		}
	});

	it("a denied consent is one line naming the configuration and the step", async () => {
		const who = person({ fields: { login: provider.user.name, password: provider.user.password }, deny: true });
		const h = harness(who);
		try {
			const result = await h.run(block("web"));
			expect(result.error?.code).toBe("auth_failed");
			expect(result.error?.message).toMatch(/^Auth "web", authorization: consent was denied \(access_denied.*\)\. Run the block again and allow access$/);
			await h.settled();
			expect(who.pages[0]).toMatchObject({ body: PAGES.refused });
		} finally {
			await h.engine.close();
		}
	});

	it("refuses a redirect that carries another state, and sends no code to the provider", async () => {
		const who = person();
		who.act = async (prompt) => {
			if (prompt.kind !== "browser") return;
			const back = new URL(new URL(prompt.url).searchParams.get("redirect_uri")!);
			back.search = new URLSearchParams({ code: "forged", state: "not-the-one-sent" }).toString();
			who.pages.push(await signInWithBrowser(back.toString()));
		};
		const h = harness(who);
		try {
			const result = await h.run(block("web"));
			expect(result.error?.message).toBe("Auth \"web\", authorization: the browser returned with another sign-in's state (a stale or forged redirect). Run the block again");
			expect(h.engine.auth.current("dev", "web")).toBeUndefined();
		} finally {
			await h.engine.close();
		}
	});

	it("ends when the time limit runs out, and the loopback port stops listening", async () => {
		const who = person();
		who.act = async () => undefined; // nobody comes
		who.waitEnds = () => true;
		const h = harness(who);
		try {
			const result = await h.run(block("web"));
			expect(result.error?.message).toBe('Auth "web", authorization: nobody finished the sign-in within 5 minutes. Run the block again and finish the sign-in in the browser');
			const redirect = new URL((who.prompts[0] as { url: string }).url).searchParams.get("redirect_uri")!;
			await expect(signInWithBrowser(redirect)).rejects.toThrow(/ECONNREFUSED/);
		} finally {
			await h.engine.close();
		}
	});

	it("ends when the run is cancelled, and when the prompt's Cancel is pressed", async () => {
		const stop = new AbortController();
		const who = person();
		who.act = async () => stop.abort();
		const h = harness(who);
		try {
			const cancelled = await h.run(block("web"), stop.signal);
			expect(cancelled.state).not.toBe("done");
			expect(h.engine.auth.current("dev", "web")).toBeUndefined();
			who.act = async (_prompt, cancel) => cancel();
			const result = await h.run(block("web"));
			expect(result.error?.message).toBe('Auth "web", authorization: the sign-in was cancelled');
		} finally {
			await h.engine.close();
		}
	});
});

describe("device code", () => {
	it("shows the code and the link, polls at the provider's interval until the person confirms, and sends the token", async () => {
		const who = person();
		const h = harness(who);
		try {
			const result = await h.run(block("tv"));
			expect(result.error).toBeUndefined();
			expect(result.head?.status).toBe(200);
			const prompt = who.prompts[0];
			if (prompt.kind !== "device") throw new Error("expected a device prompt");
			expect(prompt.userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
			expect(prompt.verificationUri).toBe(`${provider.issuer}/device`);
			expect(prompt.expiresAt).toBe(h.clock.now + 600_000);
			// oidc-provider names no interval: RFC 8628's five seconds, once before each poll.
			expect(who.waits[0]).toBe(5_000);
			expect(h.engine.auth.current("dev", "tv")?.refreshToken).toBeDefined();
		} finally {
			await h.engine.close();
		}
	});

	it("a denied confirmation is one line naming the configuration and the step", async () => {
		const who = person({ fields: { login: provider.user.name, password: provider.user.password }, deny: true });
		const h = harness(who);
		try {
			const result = await h.run(block("tv"));
			expect(result.error?.message).toMatch(/^Auth "tv", device authorization: consent was denied \(access_denied.*\)\. Run the block again and allow access$/);
		} finally {
			await h.engine.close();
		}
	});

	it("stops polling once the code has expired on the clock", async () => {
		const who = person();
		const h = harness(who);
		who.act = async () => {
			h.clock.now += 601_000; // the person walks away
		};
		try {
			const result = await h.run(block("tv"));
			expect(result.error?.message).toBe('Auth "tv", device authorization: the device code expired before it was confirmed. Run the block again and confirm the new code in time');
			expect(who.waits).toHaveLength(1);
		} finally {
			await h.engine.close();
		}
	});
});
