/**
 * One client-credentials block end to end from the production main.js in the desktop host:
 * the token fetched from the local OpenID provider through the node transport, sent, and shown
 * masked in the Raw tab; the client secret from Obsidian's secret storage.
 */
import { startProvider, type TestProvider } from "../support/oidc";
import { launchDesktopHost, panelOf, run, showTab, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(60_000);

let host: DesktopHost;
let provider: TestProvider;

beforeAll(async () => {
	provider = await startProvider();
	host = await launchDesktopHost();
	await host.page.writeFile(
		".obsidian/plugins/runnable-blocks/user.toml",
		`[general]\nenvironment = "dev"\n\n[environments.dev]\napi = "${provider.resource}"\n\n[environments.dev.auth.kc]\ntype = "oauth2"\ngrant = "client_credentials"\nissuer = "${provider.issuer}"\nclient_id = "${provider.client.id}"\nclient_secret = { secret = "kc-secret" }\n`,
	);
	host.page.secrets.set("kc-secret", provider.client.secret);
	await host.loadPlugin();
	host.page.renderReading('```http alias=me\nGET {{api}}/api\nAuthorization: Bearer {{$auth.token("kc")}}\n```', "api/auth.md");
});

afterAll(async () => {
	await host?.close();
	await provider?.stop();
});

describe("an OAuth block in the desktop host", () => {
	it("gets a client-credentials token, is answered 200, and shows the token masked", async () => {
		expect(await run(host.document, "me")).toBe("done");
		const panel = showTab(host.document, "me", "raw");
		const raw = await waitFor("the Raw tab", () => (panel.textContent?.includes("Authorization") ? panel.textContent : undefined));
		expect(raw).toContain("Authorization: Bearer •••");
		expect(raw).toContain("200");
		expect(panelOf(host.document, "me").textContent).not.toContain(provider.client.secret);
	});
});
