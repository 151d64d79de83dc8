/**
 * The Auth tab in Chromium, from the production main.js: a client-credentials token from a local
 * token endpoint that answers a JWT signed here with jose; the tab shows its claims and expiry,
 * and the raw token only after "Show token".
 */
import { SignJWT } from "jose";
import { launchPluginHost, type PluginHost } from "./support/host";

jest.setTimeout(120_000);

let host: PluginHost;
let token = "";

beforeAll(async () => {
	const now = Math.floor(Date.now() / 1000);
	token = await new SignJWT({ sub: "svc-notes", scope: "api:read", tenant: "acme" }).setProtectedHeader({ alg: "HS256", kid: "test-key" }).setIssuedAt(now).setExpirationTime(now + 3600).sign(new TextEncoder().encode("a-test-key-of-at-least-32-bytes!!"));
	host = await launchPluginHost({
		routes: {
			"/oauth/token": (_req, res) => {
				res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
				res.end(JSON.stringify({ access_token: token, token_type: "Bearer", expires_in: 3600, scope: "api:read" }));
			},
		},
		userToml: (url) => `[general]\nenvironment = "dev"\n\n[environments.dev]\napi = "${url}"\n\n[environments.dev.auth.svc]\ntype = "oauth2"\ngrant = "client_credentials"\ntoken_url = "${url}/oauth/token"\nclient_id = "notes"\n`,
	});
	await host.api((h, md) => h.renderReading(md, "auth.md"), '```http alias=svc\nGET {{api}}/api/json\nAuthorization: Bearer {{$auth.token("svc")}}\n```\n\n```http alias=plain\nGET {{api}}/api/json\n```\n');
});

afterAll(async () => {
	await host?.close();
});

const panelOf = (alias: string) => host.page.locator(".rb-block", { has: host.page.locator(".rb-alias", { hasText: `alias ${alias}` }) }).locator(".rb-panel");

async function run(alias: string): Promise<void> {
	await panelOf(alias).locator(".rb-run").click();
	await host.page.waitForFunction((a) => {
		const block = [...document.querySelectorAll(".rb-block")].find((b) => b.querySelector(".rb-alias")?.textContent?.includes(`alias ${a}`));
		return block?.querySelector(".rb-panel")?.getAttribute("data-state") === "done";
	}, alias);
}

describe("the Auth tab", () => {
	it("shows the configuration, the expiry and the decoded claims, and the raw token only after Show token", async () => {
		await run("svc");
		const panel = panelOf("svc");
		await panel.locator('.rb-tab[data-tab="auth"]').click();
		const config = panel.locator('.rb-auth-config[data-auth-name="svc"]');
		const facts = await config.locator(".rb-auth-facts").textContent();
		expect(facts).toContain("dev");
		expect(facts).toContain("client_credentials");
		expect(facts).toContain("bearer"); // oauth4webapi lower-cases token_type
		expect(facts).toMatch(/\(in (59|60) min\)/);
		expect(facts).toContain("api:read");
		const claims = await config.locator(".rb-auth-claims").textContent();
		expect(claims).toContain("svc-notes");
		expect(claims).toContain("acme");
		expect(await config.locator(".rb-auth-header").textContent()).toContain("test-key");
		expect(await panel.textContent()).not.toContain(token);

		await config.locator(".rb-auth-show").click();
		expect(await config.locator(".rb-auth-raw").textContent()).toBe(token);
		await config.locator(".rb-auth-show").click();
		expect(await panel.textContent()).not.toContain(token);
	});

	it("is not offered for a run that carried no token", async () => {
		await run("plain");
		await expect(panelOf("plain").locator('.rb-tab[data-tab="auth"]').isVisible()).resolves.toBe(false);
		await expect(panelOf("svc").locator('.rb-tab[data-tab="auth"]').isVisible()).resolves.toBe(true);
	});
});
