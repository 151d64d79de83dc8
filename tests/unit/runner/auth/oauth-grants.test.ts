import { clientCredentialsGrant, passwordGrant, refreshGrant, type OAuthAuth } from "../../../../src/runner/auth/oauth-grants";
import { transportFetch } from "../../../../src/runner/auth/transport-fetch";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { startOAuthEndpoints, tokenAnswer, type OAuthEndpoints } from "../../../support/oauth-endpoints";

let server: OAuthEndpoints;
beforeAll(async () => {
	server = await startOAuthEndpoints(() => tokenAnswer("at-1", { refresh_token: "rt-2" }));
});
const transport = createNodeTransport();
afterAll(async () => {
	transport.close();
	await server.close();
});
beforeEach(() => (server.asked.length = 0));

const deps = { fetch: transportFetch(transport), now: () => 1_000 };
const auth = (config: Partial<OAuthAuth["config"]> = {}): OAuthAuth => ({
	name: "kc",
	config: { type: "oauth2", grant: "client_credentials", tokenUrl: `${server.base}/token`, clientId: "notes", clientSecret: { secret: "kc" }, pkce: true, persist: false, ...config },
	secrets: { client_secret: "s3cret", password: "pw" },
	unset: [],
});
const TARGET = { scope: "api", audience: "https://api.example.com", resource: ["https://a.example.com", "https://b.example.com"] };
const basic = `Basic ${Buffer.from("notes:s3cret").toString("base64")}`;

/** The form fields of the one token request, by name (a repeated name keeps its order). */
const asked = () => {
	expect(server.asked).toHaveLength(1);
	return [...server.asked[0].fields].sort(([a], [b]) => a.localeCompare(b));
};

describe("the token requests that ask for a grant", () => {
	it.each([
		["client credentials", () => clientCredentialsGrant(auth(TARGET), deps), [["grant_type", "client_credentials"]]],
		[
			"password",
			() => passwordGrant(auth({ grant: "password", username: "alice", ...TARGET }), deps),
			[
				["grant_type", "password"],
				["username", "alice"],
				["password", "pw"],
			],
		],
	])("%s: sends the scope, Auth0's audience and every RFC 8707 resource", async (_grant, run, own) => {
		expect((await run()).ok).toBe(true);
		expect(asked()).toEqual([...own, ["scope", "api"], ["audience", "https://api.example.com"], ["resource", "https://a.example.com"], ["resource", "https://b.example.com"]].sort(([a], [b]) => a.localeCompare(b)));
	});

	it("sends none of them when none is configured", async () => {
		expect((await clientCredentialsGrant(auth(), deps)).ok).toBe(true);
		expect(asked()).toEqual([["grant_type", "client_credentials"]]);
	});
});

it("a refresh asks for the resources again (RFC 8707 §2.2), not the audience", async () => {
	expect((await refreshGrant(auth(TARGET), deps, { accessToken: "at-0", issuedAt: 0, refreshToken: "rt-1" })).ok).toBe(true);
	expect(asked()).toEqual([["grant_type", "refresh_token"], ["refresh_token", "rt-1"], ["resource", "https://a.example.com"], ["resource", "https://b.example.com"]]);
});

describe("client authentication at the token endpoint", () => {
	it("is HTTP Basic by default (RFC 6749 §2.3.1), with no secret in the form", async () => {
		await clientCredentialsGrant(auth(), deps);
		expect(server.asked[0].headers.authorization).toBe(basic);
		expect(server.asked[0].form.client_secret).toBeUndefined();
	});

	it('is form fields with client_auth = "post"', async () => {
		await clientCredentialsGrant(auth({ clientAuth: "post" }), deps);
		expect(server.asked[0].headers.authorization).toBeUndefined();
		expect(server.asked[0].form).toMatchObject({ client_id: "notes", client_secret: "s3cret" });
	});

	it("is the client id alone without a secret (a public client)", async () => {
		await clientCredentialsGrant({ ...auth(), secrets: {} }, deps);
		expect(server.asked[0].headers.authorization).toBeUndefined();
		expect(server.asked[0].form).toMatchObject({ client_id: "notes" });
	});
});
