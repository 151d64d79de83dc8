import { deviceCodeGrant } from "../../../../src/runner/auth/device-code";
import type { OAuthAuth } from "../../../../src/runner/auth/oauth-grants";
import type { SignInHost, SignInPrompt } from "../../../../src/runner/auth/sign-in";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { transportFetch } from "../../../../src/runner/auth/transport-fetch";
import { oauthError, startOAuthEndpoints, tokenAnswer, type Answer, type OAuthEndpoints } from "../../../support/oauth-endpoints";

const START = { device_code: "dev-code-1", user_code: "WDJB-MJHT", verification_uri: "https://id.example.com/device", verification_uri_complete: "https://id.example.com/device?user_code=WDJB-MJHT", expires_in: 600, interval: 2 };

let server: OAuthEndpoints;
/** What the device endpoint answers, and the token endpoint poll after poll. */
let start: typeof START;
let polls: Answer[];
beforeAll(async () => {
	server = await startOAuthEndpoints((asked) => (asked.path === "/device" ? { status: 200, json: start } : (polls.shift() ?? oauthError("authorization_pending"))));
});
const transport = createNodeTransport();
afterAll(async () => {
	transport.close();
	await server.close();
});
beforeEach(() => {
	server.asked.length = 0;
	start = START;
});

const auth = (config: Partial<OAuthAuth["config"]> = {}): OAuthAuth => ({
	name: "tv",
	config: { type: "oauth2", grant: "device_code", tokenUrl: `${server.base}/token`, deviceUrl: `${server.base}/device`, clientId: "notes", scope: "api", pkce: true, persist: false, ...config },
	secrets: {},
	unset: [],
});

/** A host that records the prompt and every wait, and a clock each wait moves forward by its length. */
function host(onPrompt: (p: SignInPrompt, cancel: () => void) => void = () => undefined) {
	const clock = { now: 1_000_000 };
	const prompts: SignInPrompt[] = [];
	const waits: number[] = [];
	let closed = 0;
	const h: SignInHost = {
		prompt(p, cancel) {
			prompts.push(p);
			onPrompt(p, cancel);
			return () => closed++;
		},
		wait: async (ms) => {
			waits.push(ms);
			clock.now += ms;
		},
	};
	return { h, clock, prompts, waits, closed: () => closed, deps: { fetch: transportFetch(transport), now: () => clock.now } };
}

describe("deviceCodeGrant", () => {
	it("shows the code and the links, and polls at the interval until the person confirms", async () => {
		polls = [oauthError("authorization_pending"), tokenAnswer("at-1", { refresh_token: "rt-1" })];
		const t = host();
		const outcome = await deviceCodeGrant(auth(), t.deps, t.h);
		expect(outcome.ok && [outcome.tokens.accessToken, outcome.tokens.refreshToken]).toEqual(["at-1", "rt-1"]);
		expect(t.prompts).toEqual([{ kind: "device", name: "tv", userCode: "WDJB-MJHT", verificationUri: START.verification_uri, verificationUriComplete: START.verification_uri_complete, expiresAt: 1_000_000 + 600_000 }]);
		expect(t.waits).toEqual([2_000, 2_000]);
		expect(server.asked.map((a) => [a.path, a.form.grant_type ?? a.form.scope])).toEqual([
			["/device", "api"],
			["/token", "urn:ietf:params:oauth:grant-type:device_code"],
			["/token", "urn:ietf:params:oauth:grant-type:device_code"],
		]);
		expect(server.asked[1].form.device_code).toBe("dev-code-1");
		expect(t.closed()).toBe(1);
	});

	it("asks for the scope, audience and resources when it starts, and for the resources again when it polls", async () => {
		polls = [tokenAnswer("at-1")];
		const t = host();
		expect((await deviceCodeGrant(auth({ audience: "https://api.example.com", resource: ["https://a.example.com"] }), t.deps, t.h)).ok).toBe(true);
		expect(server.asked.map((a) => [a.path, a.fields.filter(([k]) => ["scope", "audience", "resource"].includes(k))])).toEqual([
			["/device", [["scope", "api"], ["audience", "https://api.example.com"], ["resource", "https://a.example.com"]]],
			["/token", [["resource", "https://a.example.com"]]],
		]);
	});

	it("waits five seconds longer after each slow_down (RFC 8628 §3.5)", async () => {
		polls = [oauthError("slow_down"), oauthError("authorization_pending"), oauthError("slow_down"), tokenAnswer("at-2")];
		const t = host();
		expect((await deviceCodeGrant(auth(), t.deps, t.h)).ok).toBe(true);
		expect(t.waits).toEqual([2_000, 7_000, 7_000, 12_000]);
	});

	it("stops when the code expires on the clock, without another poll", async () => {
		polls = [];
		start = { ...START, expires_in: 6 };
		const t = host();
		const outcome = await deviceCodeGrant(auth(), t.deps, t.h);
		expect(outcome).toEqual({ ok: false, problem: { step: "device authorization", reason: "the device code expired before it was confirmed", hint: "Run the block again and confirm the new code in time" } });
		// Three waits of 2 s reach the 6 s lifetime; the poll after the last one is not sent.
		expect(t.waits).toHaveLength(3);
		expect(server.asked.filter((a) => a.path === "/token")).toHaveLength(2);
		expect(t.closed()).toBe(1);
	});

	it.each([
		["expired_token", "the device code expired before it was confirmed (expired_token)"],
		["access_denied", "consent was denied (access_denied)"],
	])("reads the provider's %s as the end of the sign-in", async (error, reason) => {
		polls = [oauthError(error)];
		const t = host();
		const outcome = await deviceCodeGrant(auth(), t.deps, t.h);
		expect(!outcome.ok && outcome.problem.reason).toBe(reason);
	});

	it("ends on the prompt's Cancel", async () => {
		polls = [];
		const t = host((_p, cancel) => cancel());
		expect(await deviceCodeGrant(auth(), t.deps, t.h)).toEqual({ ok: false, problem: { step: "device authorization", reason: "the sign-in was cancelled" } });
		expect(server.asked.filter((a) => a.path === "/token")).toHaveLength(0);
	});

	it("ends when the run is cancelled", async () => {
		polls = [];
		const stop = new AbortController();
		const t = host(() => stop.abort());
		const outcome = await deviceCodeGrant(auth(), { ...t.deps, signal: stop.signal }, t.h);
		expect(!outcome.ok && outcome.problem.reason).toBe("the sign-in was cancelled");
	});

	it("names the key to set when there is no device endpoint", async () => {
		const t = host();
		const outcome = await deviceCodeGrant(auth({ deviceUrl: undefined }), t.deps, t.h);
		expect(outcome).toEqual({ ok: false, problem: { step: "configuration", reason: "no device authorization endpoint", hint: "Set device_url, or an issuer whose discovery names one" } });
		expect(t.prompts).toEqual([]);
	});
});
