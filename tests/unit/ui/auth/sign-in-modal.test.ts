/** @jest-environment jsdom */
import type { App } from "obsidian";
import { installDomHelpers, Keymap, Scope } from "../../../e2e/host/obsidian-shim";
import { isWebUrl, SignInModal } from "../../../../src/ui/auth/sign-in-modal";
import type { SignInPrompt } from "../../../../src/runner/auth/sign-in";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
const scope = new Scope();
const app = { scope, keymap: new Keymap(scope) } as unknown as App;

function open(prompt: SignInPrompt) {
	document.body.empty();
	const opened: string[] = [];
	const copied: string[] = [];
	let cancelled = 0;
	const modal = new SignInModal(app, prompt, { openUrl: (u) => opened.push(u), copy: async (t) => void copied.push(t), cancel: () => cancelled++ });
	modal.open();
	const buttons = () => [...document.querySelectorAll("button")];
	const click = (text: string) => buttons().find((b) => b.textContent === text)?.click();
	return { modal, opened, copied, cancelled: () => cancelled, buttons, click, text: () => document.body.textContent ?? "" };
}

const device: SignInPrompt = { kind: "device", name: "tv", userCode: "WDJB-MJHT", verificationUri: "https://id.example.com/device", verificationUriComplete: "https://id.example.com/device?user_code=WDJB-MJHT", expiresAt: 0 };

describe("SignInModal", () => {
	it("asks to continue in the browser, and opens the page again on demand", () => {
		const m = open({ kind: "browser", name: "web", url: "https://id.example.com/authorize?x=1" });
		expect(m.text()).toContain("Sign in: web");
		expect(m.text()).toContain("Continue in your browser.");
		m.click("Open the sign-in page again");
		expect(m.opened).toEqual(["https://id.example.com/authorize?x=1"]);
	});

	it("shows the device code as text and the link, copies the code and opens the complete link", async () => {
		const m = open(device);
		expect(document.querySelector(".runnable-auth-user-code")?.textContent).toBe("WDJB-MJHT");
		expect(m.text()).toContain("open https://id.example.com/device and enter this code");
		m.click("Copy code");
		await Promise.resolve();
		expect(m.copied).toEqual(["WDJB-MJHT"]);
		m.click("Open the page");
		expect(m.opened).toEqual([device.kind === "device" ? device.verificationUriComplete : ""]);
	});

	it("offers no button for a link that is not a web link", () => {
		const m = open({ ...device, verificationUri: "javascript:alert(1)", verificationUriComplete: undefined });
		expect(m.buttons().map((b) => b.textContent)).toEqual(["Copy code", "Cancel"]);
		expect(document.querySelector("a")).toBeNull();
	});

	it("cancels the sign-in when Cancel is pressed or the modal is closed", () => {
		const pressed = open(device);
		pressed.click("Cancel");
		expect(pressed.cancelled()).toBe(1);
		const closed = open(device);
		closed.modal.close();
		expect(closed.cancelled()).toBe(1);
	});

	it("closes without cancelling when the sign-in ended on its own", () => {
		const m = open(device);
		m.modal.finish();
		expect(m.cancelled()).toBe(0);
		expect(document.querySelector(".runnable-auth-user-code")).toBeNull();
	});
});

describe("isWebUrl", () => {
	it.each([
		["https://id.example.com/device", true],
		["HTTP://127.0.0.1:8080/x", true],
		["javascript:alert(1)", false],
		["obsidian://open", false],
	])("%s: %s", (url, web) => expect(isWebUrl(url)).toBe(web));
});
