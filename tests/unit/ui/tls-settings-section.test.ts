/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import { SettingsStore } from "../../../src/ui/settings-store";
import { drawRows } from "../../../src/ui/settings-rows";
import { addTlsServer, tlsSecretId, tlsServerRows } from "../../../src/ui/tls-settings-section";
import { memoryVault } from "../../support/memory-vault";
import { changedText as changed, typeInto } from "../../support/settings-vault";
import { installDomHelpers, Keymap, notices, Scope } from "../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();

const DIR = ".obsidian/plugins/runnable-blocks";
const TOML = `# servers
[tls."localhost:8443"]
verify = false
passphrase = { secret = "dev-key" }

[tls."api.internal.example"]
ca = "certs/ca.pem"
cert = "certs/me.pem"
key = "certs/me-key.pem"
passphrase = "written"
`;

async function page(toml = TOML, secrets: Map<string, string> | null = new Map()) {
	const scope = new Scope();
	const extra = { scope, keymap: new Keymap(scope), ...(secrets ? { secretStorage: { getSecret: (id: string) => secrets.get(id) ?? null, setSecret: (id: string, v: string) => void secrets.set(id, v) } } : {}) };
	const vault = memoryVault({ [`${DIR}/user.toml`]: toml }, extra);
	const store = new SettingsStore(vault.app, DIR);
	await store.load();
	const el = document.body.createDiv();
	drawRows(el, tlsServerRows(vault.app, store));
	const text = () => vault.files.get(`${DIR}/user.toml`) as string;
	const row = (server: string) => el.querySelector<HTMLElement>(`[data-tls-server="${server}"]`) as HTMLElement;
	const inputs = (key: string) => [...el.querySelectorAll<HTMLInputElement>(`input[data-key="${key}"]`)];
	const setting = (name: string) => [...el.querySelectorAll<HTMLElement>(".setting-item")].filter((s) => s.querySelector(".setting-item-name")?.textContent === name);
	return { store, el, text, row, inputs, setting, secrets };
}

/** A field edited and left: settings fields write on `change`. */
const type = (input: HTMLInputElement, value: string, event = "change") => typeInto(input, value, event);

beforeEach(() => {
	notices.length = 0;
	document.body.empty();
});

describe("tlsSecretId", () => {
	it.each([
		["localhost:8443", "runnable-blocks-tls-localhost-8443"],
		["API.example.com", "runnable-blocks-tls-api-example-com"],
		["[::1]:9443", "runnable-blocks-tls-1-9443"],
	])("keeps %j to Obsidian's secret ids: %s", (server, id) => expect(tlsSecretId(server)).toBe(id));
});

describe("the TLS per server section", () => {
	it("lists each server with its files, its verification and how its passphrase is kept", async () => {
		const p = await page();
		expect(p.row("localhost:8443")).toBeTruthy();
		expect(p.inputs("ca").map((i) => i.value)).toEqual(["", "certs/ca.pem"]);
		expect(p.inputs("cert").map((i) => i.value)).toEqual(["", "certs/me.pem"]);
		expect(p.setting("Verify the certificate").map((s) => s.querySelector(".checkbox-container")?.hasClass("is-enabled"))).toEqual([false, true]);
		expect(p.inputs("passphrase").map((i) => i.value)).toEqual(["", ""]);
		expect(p.setting("Key passphrase").map((s) => s.querySelector(".setting-item-description")?.textContent)).toEqual([
			"Secret, stored as “dev-key”.",
			"Kept in Obsidian's secret storage; user.toml only names the secret.",
		]);
	});

	it("says there are none yet", async () => {
		const p = await page("");
		expect(p.el.querySelector(".setting-item-heading .rb-settings-none")?.textContent).toBe("No servers yet.");
	});

	it("writes an edited file path, removes a cleared one, and toggles verification, keeping the file's comments", async () => {
		const p = await page();
		let before = p.text();
		type(p.inputs("ca")[0], " dev/ca.pem ");
		let after = await changed(p.text, before);
		expect(after).toContain("# servers");
		expect(p.store.settings.tls["localhost:8443"]).toEqual({ verify: false, passphrase: { secret: "dev-key" }, ca: "dev/ca.pem" });
		before = after;
		type(p.inputs("ca")[1], "");
		after = await changed(p.text, before);
		expect(p.store.settings.tls["api.internal.example"].ca).toBeUndefined();
		(p.setting("Verify the certificate")[0].querySelector(".checkbox-container") as HTMLElement).click();
		await changed(p.text, after);
		expect(p.store.settings.tls["localhost:8443"].verify).toBe(true);
	});

	it("moves a passphrase into Obsidian's secret storage, user.toml naming the secret only", async () => {
		const p = await page();
		const before = p.text();
		type(p.inputs("passphrase")[1], "s3cret");
		const after = await changed(p.text, before);
		expect(p.secrets?.get("runnable-blocks-tls-api-internal-example")).toBe("s3cret");
		expect(after).not.toContain("written");
		expect(after).not.toContain("s3cret");
		expect(p.store.settings.tls["api.internal.example"].passphrase).toEqual({ secret: "runnable-blocks-tls-api-internal-example" });
	});

	it("keeps a new passphrase under the secret the server names already", async () => {
		const p = await page();
		type(p.inputs("passphrase")[0], "other");
		expect(p.secrets?.get("dev-key")).toBe("other");
		expect([...(p.secrets?.keys() ?? [])]).toEqual(["dev-key"]);
		expect(p.store.settings.tls["localhost:8443"].passphrase).toEqual({ secret: "dev-key" });
	});

	it("says so, and keeps nothing, where Obsidian has no secret storage", async () => {
		const p = await page(TOML, null);
		type(p.inputs("passphrase")[0], "s3cret");
		expect(notices).toEqual(["Runnable Blocks: This version of Obsidian has no secret storage; the secret was not saved."]);
		expect(p.text()).toBe(TOML);
	});

	it("deletes a server with its trash button", async () => {
		const p = await page();
		const before = p.text();
		(p.row("localhost:8443").querySelector(".extra-setting-button") as HTMLElement).click();
		const after = await changed(p.text, before);
		expect(after).not.toContain('[tls."localhost:8443"]');
		expect(Object.keys(p.store.settings.tls)).toEqual(["api.internal.example"]);
	});

	it("adds a server from the New server row", async () => {
		const p = await page();
		const row = p.el.querySelector(".rb-new-tls-server") as HTMLElement;
		type(row.querySelector("input") as HTMLInputElement, "Staging.example:9443", "input");
		const before = p.text();
		(row.querySelector("button") as HTMLButtonElement).click();
		expect(await changed(p.text, before)).toContain('[tls."staging.example:9443"]\nverify = true');
		expect(p.store.settings.tls["staging.example:9443"]).toEqual({ verify: true });
	});
});

describe("addTlsServer", () => {
	it.each([
		["a URL", "https://api.example", "A server is a host or host:port, without https:// or a path."],
		["a path", "api.example/v1", "A server is a host or host:port, without https:// or a path."],
		["a server listed already", "LOCALHOST:8443", "localhost:8443 has its settings already."],
	])("refuses %s, saying why, and leaves user.toml as it was", async (_case, name, message) => {
		const p = await page();
		await expect(addTlsServer(p.store, name)).resolves.toBe(false);
		expect(notices).toEqual([`Runnable Blocks: ${message}`]);
		expect(p.text()).toBe(TOML);
	});
});
