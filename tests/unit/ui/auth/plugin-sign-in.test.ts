/** @jest-environment jsdom */
import type { App } from "obsidian";
import { installDomHelpers, Keymap, Scope } from "../../../e2e/host/obsidian-shim";
import { TextDecoder, TextEncoder } from "node:util";
import type * as PluginSignIn from "../../../../src/ui/auth/plugin-sign-in";
import { httpGet } from "../../../support/oauth-endpoints";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

// jsdom has no TextEncoder; the request module under the grants makes one when loaded.
Object.assign(globalThis, { TextEncoder, TextDecoder });
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the globals above
const { pluginSignInHost } = require("../../../../src/ui/auth/plugin-sign-in") as typeof PluginSignIn;

installDomHelpers();
const scope = new Scope();
const app = { scope, keymap: new Keymap(scope) } as unknown as App;

describe("pluginSignInHost", () => {
	it("opens the browser sign-in at once and shows the modal until the sign-in ends", () => {
		const opened: string[] = [];
		const host = pluginSignInHost(app, { openUrl: (u) => opened.push(u), desktop: true });
		const close = host.prompt({ kind: "browser", name: "web", url: "https://id.example.com/authorize" }, () => undefined);
		expect(opened).toEqual(["https://id.example.com/authorize"]);
		expect(document.querySelector(".modal")?.textContent).toContain("Sign in: web");
		close();
		expect(document.querySelector(".modal")).toBeNull();
	});

	it("leaves a device code's page to the person (it may be confirmed on another device)", () => {
		const opened: string[] = [];
		const host = pluginSignInHost(app, { openUrl: (u) => opened.push(u), desktop: true });
		host.prompt({ kind: "device", name: "tv", userCode: "ABCD", verificationUri: "https://id.example.com/device", expiresAt: 0 }, () => undefined)();
		expect(opened).toEqual([]);
	});

	it("listens for the browser's return on desktop only", () => {
		expect(pluginSignInHost(app, { desktop: true }).listen).toBeDefined();
		expect(pluginSignInHost(app, { desktop: false }).listen).toBeUndefined();
	});

	it("answers the browser in the user's language", async () => {
		const redirect = await pluginSignInHost(app, { desktop: true }).listen!("http://127.0.0.1/callback");
		try {
			const next = redirect.next(new AbortController().signal);
			expect((await httpGet(`${redirect.redirectUri}?code=c`)).body).toBe("Signed in. You can close this tab and go back to Obsidian.");
			await next;
		} finally {
			redirect.close();
		}
	});
});
