/** @jest-environment jsdom */
import type { App } from "obsidian";
import { installDomHelpers, Keymap, notices, Scope } from "../../e2e/host/obsidian-shim";
import { eventually } from "../../e2e/support/eventually";
import { EnvironmentActions } from "../../../src/ui/environments";
import { loadedStore, memoryAdapter, USER_TOML } from "../../support/settings-vault";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();
const scope = new Scope();
const keymap = new Keymap(scope);
const press = (key: string) => window.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
// A modal a case leaves open would take the next case's keys.
afterEach(() => {
	for (let open = document.querySelectorAll(".modal-container").length; open > 0; open--) press("Escape");
});

const TOML = '# mine\n[general]\nenvironment = "dev"\n\n[environments.dev]\nbase = "http://127.0.0.1"\n\n[environments.staging]\nbase = "http://127.0.0.2"\n';

/** An app with a vault holding user.toml, Obsidian's key scopes and, unless left out, its secret storage. */
async function setUp(toml: string, withSecrets = true) {
	document.body.empty();
	notices.length = 0;
	const adapter = memoryAdapter({ [USER_TOML]: toml });
	const secrets = new Map<string, string>();
	const app = {
		scope,
		keymap,
		vault: { adapter },
		...(withSecrets ? { secretStorage: { setSecret: (id: string, v: string) => secrets.set(id, v), getSecret: (id: string) => secrets.get(id) ?? null } } : {}),
	} as unknown as App;
	const store = await loadedStore(app);
	return { app, store, adapter, secrets, actions: new EnvironmentActions(app, store), toml: () => adapter.files.get(USER_TOML) ?? "" };
}

const input = (cls: string) => document.querySelector<HTMLInputElement>(`.${cls}`)!;
function type(cls: string, value: string): void {
	input(cls).value = value;
	input(cls).dispatchEvent(new Event("input"));
}
const click = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent === text)!.click();

describe("EnvironmentActions", () => {
	it("switches the active environment by writing user.toml, comments kept", async () => {
		const s = await setUp(TOML);
		expect(s.actions.active).toBe("dev");
		await expect(s.actions.switchTo("staging")).resolves.toBe(true);
		expect(s.actions.active).toBe("staging");
		expect(s.toml()).toContain('# mine\n[general]\nenvironment = "staging"');
	});

	it("writes a plain variable's value into user.toml", async () => {
		const s = await setUp(TOML);
		await s.actions.setVariable("dev", "token", "abc", false);
		expect(s.store.settings.environments.dev.token).toEqual({ value: "abc" });
	});

	it("keeps a secret's value in secret storage; user.toml only names it", async () => {
		const s = await setUp(TOML);
		await expect(s.actions.setVariable("dev", "password", "hunter2", true)).resolves.toBe(true);
		expect(s.secrets.get("runnable-blocks-dev-password")).toBe("hunter2");
		expect(s.toml()).not.toContain("hunter2");
		expect(s.store.settings.environments.dev.password).toEqual({ secret: "runnable-blocks-dev-password" });
	});

	it("writes nothing and says why when Obsidian has no secret storage", async () => {
		const s = await setUp(TOML, false);
		await expect(s.actions.setVariable("dev", "password", "hunter2", true)).resolves.toBe(false);
		expect(s.toml()).toBe(TOML);
		expect(notices).toEqual(["Runnable Blocks: This version of Obsidian has no secret storage; the secret was not saved."]);
	});

	describe("the status-bar item", () => {
		it("shows the active environment, follows user.toml, and opens the switcher on click", async () => {
			const s = await setUp(TOML);
			const el = document.body.createDiv();
			const stop = s.actions.attachStatusBar(el);
			expect(el.textContent).toBe("env: dev");
			expect(el.getAttribute("aria-label")).toBe("Switch environment");
			expect(el.classList.contains("mod-clickable")).toBe(true);
			await s.actions.switchTo("staging");
			expect(el.textContent).toBe("env: staging");
			el.click();
			expect(document.querySelector(".prompt")).not.toBeNull();
			stop();
			await s.actions.switchTo("dev");
			expect(el.textContent).toBe("env: staging");
		});

		it("says none when no environment is active", async () => {
			const s = await setUp('[environments.dev]\nbase = "x"\n');
			const el = document.body.createDiv();
			s.actions.attachStatusBar(el);
			expect(el.textContent).toBe("env: none");
		});
	});

	describe("the switcher", () => {
		it("lists the environments matching the query, marks the active one, and switches to the one chosen", async () => {
			const s = await setUp(TOML);
			s.actions.openSwitcher();
			await eventually(() => expect(document.querySelectorAll(".suggestion-item")).toHaveLength(2));
			const rows = () => [...document.querySelectorAll(".suggestion-item")].map((r) => r.textContent);
			expect(rows()).toEqual(["dev (active)", "staging"]);
			type("prompt-input", "STAG");
			await eventually(() => expect(rows()).toEqual(["staging"]));
			press("Enter");
			await eventually(() => expect(s.actions.active).toBe("staging"));
			expect(document.querySelector(".prompt")).toBeNull();
		});

		it("does not open without environments, and says how to add one", async () => {
			const s = await setUp("");
			s.actions.openSwitcher();
			expect(document.querySelector(".prompt")).toBeNull();
			expect(notices).toEqual(["Runnable Blocks: No environments yet. Add one in the settings or with the new-variable command."]);
		});
	});

	describe("the new-variable modal", () => {
		it("adds a variable to the active environment and says so", async () => {
			const s = await setUp(TOML);
			s.actions.openNewVariable();
			expect(input("rb-new-variable-env").value).toBe("dev");
			expect(document.activeElement).toBe(input("rb-new-variable-name"));
			type("rb-new-variable-name", "userId");
			type("rb-new-variable-value", "42");
			click("Add variable");
			await eventually(() => expect(notices).toEqual(["Runnable Blocks: {{userId}} added to dev"]));
			expect(s.store.settings.environments.dev.userId).toEqual({ value: "42" });
			expect(document.querySelector(".rb-new-variable")).toBeNull();
		});

		it("stores a variable marked secret in secret storage, submitted with Enter", async () => {
			const s = await setUp(TOML);
			s.actions.openNewVariable();
			type("rb-new-variable-name", "apiKey");
			type("rb-new-variable-value", "s3cret");
			(document.querySelector(".checkbox-container") as HTMLElement).click();
			press("Enter");
			await eventually(() => expect(s.secrets.get("runnable-blocks-dev-apikey")).toBe("s3cret"));
			expect(s.toml()).not.toContain("s3cret");
		});

		it("makes the first environment the active one, so the variable is usable at once", async () => {
			const s = await setUp("");
			s.actions.openNewVariable();
			expect(input("rb-new-variable-env").value).toBe("dev");
			type("rb-new-variable-env", " local ");
			type("rb-new-variable-name", "base");
			click("Add variable");
			await eventually(() => expect(s.actions.active).toBe("local"));
			expect(s.store.settings.environments.local.base).toEqual({ value: "" });
		});

		it.each([
			["a name that is not a variable name", "2fast", "dev", "A name starts with a letter or _ and has only letters, digits, _ . and -."],
			["no environment", "ok", "", "Name the environment."],
		])("stays open with %s and says what is wrong, writing nothing", async (_case, name, env, message) => {
			const s = await setUp(TOML);
			s.actions.openNewVariable();
			type("rb-new-variable-env", env);
			type("rb-new-variable-name", name);
			click("Add variable");
			expect(document.querySelector(".rb-new-variable-error")?.textContent).toBe(message);
			expect(document.querySelector(".rb-new-variable")).not.toBeNull();
			expect(s.toml()).toBe(TOML);
		});
	});
});
