/**
 * OAuth blocks end to end from the production main.js in the desktop host, against the local
 * OpenID provider through the node transport, the client secret from Obsidian's secret storage:
 * a client-credentials token shown masked in the Raw tab; an authorization code sign-in through
 * the system browser (window.open, which Obsidian hands to it) and the loopback redirect; a device
 * code shown in the sign-in modal. The person at the browser is an HTTP client filling in the
 * provider's forms.
 */
import { startProvider, type TestProvider } from "../support/oidc";
import { signInWithBrowser } from "../support/oidc/browser";
import { launchDesktopHost, panelOf, run, showTab, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(60_000);

let host: DesktopHost;
let provider: TestProvider;

beforeAll(async () => {
	provider = await startProvider();
	host = await launchDesktopHost();
	await host.page.writeFile(
		".obsidian/plugins/runnable-blocks/user.toml",
		`[general]\nenvironment = "dev"\n\n[environments.dev]\napi = "${provider.resource}"\nlocal_tokenEndpoint = "${provider.issuer}/token"\nlocal_clientId = "${provider.client.id}"\nlocal_clientSecret = { secret = "kc-secret" }\n\n[environments.dev.auth.kc]\ntype = "oauth2"\ngrant = "client_credentials"\nissuer = "${provider.issuer}"\nclient_id = "${provider.client.id}"\nclient_secret = { secret = "kc-secret" }\n` +
			["web", "tv"].map((name) => `\n[environments.dev.auth.${name}]\ntype = "oauth2"\ngrant = "${name === "web" ? "authorization_code" : "device_code"}"\nissuer = "${provider.issuer}"\nclient_id = "${provider.client.id}"\nclient_secret = { secret = "kc-secret" }\nscope = "openid offline_access"\n`).join("") +
			`\n[environments.dev.auth.kept]\ntype = "oauth2"\ngrant = "client_credentials"\nissuer = "${provider.issuer}"\nclient_id = "${provider.client.id}"\nclient_secret = { secret = "kc-secret" }\npersist = true\n`,
	);
	host.page.secrets.set("kc-secret", provider.client.secret);
	await host.loadPlugin();
	render();
});

/** One block per configuration, alias = configuration name. */
const render = () => host.page.renderReading(["kc", "web", "tv", "kept"].map((name) => `\`\`\`http alias=${name}\nGET {{api}}/api\nAuthorization: Bearer {{$auth.token("${name}")}}\n\`\`\``).join("\n\n") + "\n\n```http alias=httpyac\nGET {{api}}/api\nAuthorization: openid client_credentials local\n```", "api/auth.md");

afterAll(async () => {
	await host?.close();
	await provider?.stop();
});

describe("an OAuth block in the desktop host", () => {
	it("gets a client-credentials token, is answered 200, and shows the token masked", async () => {
		expect(await run(host.document, "kc")).toBe("done");
		const panel = showTab(host.document, "kc", "raw");
		const raw = await waitFor("the Raw tab", () => (panel.textContent?.includes("Authorization") ? panel.textContent : undefined));
		expect(raw).toContain("Authorization: Bearer •••");
		expect(raw).toContain("200");
		expect(panelOf(host.document, "kc").textContent).not.toContain(provider.client.secret);
	});
});

describe("httpyac's Authorization: openid form in the desktop host", () => {
	it("gets a token from the local_* variables (the client secret a secret variable), and shows it masked", async () => {
		expect(await run(host.document, "httpyac")).toBe("done");
		const panel = showTab(host.document, "httpyac", "raw");
		const raw = await waitFor("the Raw tab", () => (panel.textContent?.includes("Authorization") ? panel.textContent : undefined));
		expect(raw).toContain("Authorization: Bearer •••");
		expect(raw).toContain("200");
		expect(panelOf(host.document, "httpyac").textContent).not.toContain(provider.client.secret);
	});
});

describe("sign-ins that need a person, in the desktop host", () => {
	const person = () => ({ login: provider.user.name, password: provider.user.password });

	it("opens the system browser for an authorization code, receives its return on a loopback port, and runs the block", async () => {
		const opened: string[] = [];
		host.window.open = (url?: string | URL) => {
			opened.push(String(url));
			return null;
		};
		const running = run(host.document, "web");
		const url = await waitFor(() => `the browser to be opened: ${panelOf(host.document, "web").textContent}`, () => opened[0]);
		expect(host.document.querySelector(".modal")?.textContent).toContain("Sign in: web");
		const back = await signInWithBrowser(url, { fields: person() });
		expect(back.body).toBe("Signed in. You can close this tab and go back to Obsidian.");
		expect(await running).toBe("done");
		expect(host.document.querySelector(".modal")).toBeNull();
		expect(panelOf(host.document, "web").textContent).toContain("200");
	});

	it("shows a device code in the modal and runs the block once it is confirmed", async () => {
		const running = run(host.document, "tv");
		const code = await waitFor("the device code", () => host.document.querySelector(".runnable-auth-user-code")?.textContent);
		await signInWithBrowser(`${provider.issuer}/device`, { fields: { ...person(), user_code: code } });
		// The first poll comes after the provider's five-second interval.
		expect(await running).toBe("done");
		expect(host.document.querySelector(".runnable-auth-user-code")).toBeNull();
	});
});

describe("persist = true in the desktop host", () => {
	const kept = () => [...host.page.secrets].filter(([id]) => id.startsWith("runnable-blocks-token-"));

	it("keeps the token in secret storage, uses it after a restart, and Clear auth tokens empties it", async () => {
		expect(await run(host.document, "kept")).toBe("done");
		const [[id, value]] = kept();
		const token = (JSON.parse(value) as { accessToken: string }).accessToken;
		expect(kept()).toHaveLength(1);
		host.page.unloadPlugin();
		await host.loadPlugin();
		render();
		expect(await run(host.document, "kept")).toBe("done");
		// No new grant: the same token, read back from secret storage.
		expect((JSON.parse(host.page.secrets.get(id) ?? "{}") as { accessToken?: string }).accessToken).toBe(token);
		host.page.runCommand("clear-auth-tokens");
		expect(host.page.secrets.get(id)).toBe("");
	});
});

