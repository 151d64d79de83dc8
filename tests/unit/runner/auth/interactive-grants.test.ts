import { interactiveGrants } from "../../../../src/runner/auth/interactive-grants";
import type { OAuthAuth } from "../../../../src/runner/auth/oauth-grants";

const auth = (grant: "authorization_code" | "device_code"): OAuthAuth => ({
	name: "x",
	config: { type: "oauth2", grant, authUrl: "https://id.example.com/a", tokenUrl: "https://id.example.com/t", clientId: "notes", pkce: true, persist: false },
	secrets: {},
	unset: [],
});
const deps = { fetch: () => Promise.reject(new Error("no request expected")), now: () => 0 };

describe("interactiveGrants", () => {
	it("offers both grants over the host it is given", async () => {
		const grants = interactiveGrants({ prompt: () => () => undefined });
		// A host that cannot listen: the authorization code says so before any request.
		expect(await grants.authorizationCode?.(auth("authorization_code"), deps)).toMatchObject({ ok: false, problem: { step: "authorization" } });
		// No device endpoint written: the device code says so before any request.
		expect(await grants.deviceCode?.(auth("device_code"), deps)).toMatchObject({ ok: false, problem: { step: "configuration", reason: "no device authorization endpoint" } });
	});
});
