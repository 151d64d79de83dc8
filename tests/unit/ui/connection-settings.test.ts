/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import { SchemaCache } from "../../../src/runner/db/schema-cache";
import { addConnection, connectionRows, connectionSecretId, NewConnectionModal, testResultText } from "../../../src/ui/connection-settings";
import { drawRows } from "../../../src/ui/settings-rows";
import { PluginDb } from "../../../src/ui/db/plugin-db";
import { SettingsStore } from "../../../src/ui/settings-store";
import { sqliteImage } from "../../support/db-engine";
import { memoryVault } from "../../support/memory-vault";
import { changedText as changed, typeInto as type } from "../../support/settings-vault";
import { until } from "../../support/until";
import { installDomHelpers, Keymap, notices, Scope } from "../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();

const DIR = ".obsidian/plugins/runnable-blocks";
const TOML = `# my connections
[connections.shop]
type = "sqlite"
path = "shop.sqlite"
readonly = true

[connections.pgsql]
type = "postgres"
host = "db.local"
port = 5432
readonly = false
`;

async function setUp(toml = TOML, secrets: Map<string, string> | null = new Map()) {
	const scope = new Scope();
	const extra = { scope, keymap: new Keymap(scope), ...(secrets ? { secretStorage: { getSecret: (id: string) => secrets.get(id) ?? null, setSecret: (id: string, v: string) => void secrets.set(id, v) } } : {}) };
	const vault = memoryVault({ [`${DIR}/user.toml`]: toml, "shop.sqlite": await sqliteImage("CREATE TABLE a (x); CREATE TABLE b (y); CREATE VIEW v AS SELECT x FROM a;") }, extra);
	const store = new SettingsStore(vault.app, DIR);
	await store.load();
	const db = new PluginDb(vault.app, store, { snapshot: () => Promise.resolve(new Uint8Array()) }, () => null);
	const schemas = new SchemaCache(() => db.deps());
	const toml_ = () => vault.files.get(`${DIR}/user.toml`) as string;
	return { vault, app: vault.app, store, db, schemas, toml: toml_, secrets };
}

beforeEach(() => {
	notices.length = 0;
	document.body.empty();
});

describe("connectionSecretId", () => {
	it.each([
		["shop", "runnable-blocks-connection-shop"],
		["My_DB", "runnable-blocks-connection-my-db"],
		["a__b--c_", "runnable-blocks-connection-a-b-c"],
	])("keeps %j to Obsidian's secret ids: %s", (name, id) => expect(connectionSecretId(name)).toBe(id));
});

describe("addConnection", () => {
	it("adds a read-only SQLite connection by its vault path, keeping the file's comments", async () => {
		const t = await setUp();
		await expect(addConnection(t.store, { name: "notes", type: "sqlite", target: "data/notes.sqlite" })).resolves.toBe(true);
		expect(t.toml()).toContain("# my connections");
		expect(t.store.settings.connections.notes).toEqual({ type: "sqlite", path: "data/notes.sqlite", readonly: true });
	});

	it("adds a server connection by its host", async () => {
		const t = await setUp();
		await addConnection(t.store, { name: "wh", type: "mysql", target: "10.0.0.5" });
		expect(t.store.settings.connections.wh).toMatchObject({ type: "mysql", host: "10.0.0.5", readonly: true });
	});

	it.each([
		["a name with a space", { name: "my db", target: "x.sqlite" }, "A connection needs a name (letters, digits, _ and -) and a vault path."],
		["no path", { name: "x", target: "" }, "A connection needs a name (letters, digits, _ and -) and a vault path."],
		["a name taken", { name: "shop", target: "other.sqlite" }, "A connection named shop exists already."],
	])("refuses %s, saying why, and leaves user.toml as it was", async (_case, draft, message) => {
		const t = await setUp();
		await expect(addConnection(t.store, { type: "sqlite", ...draft })).resolves.toBe(false);
		expect(notices).toEqual([`Runnable Blocks: ${message}`]);
		expect(t.toml()).toBe(TOML);
	});
});

describe("testResultText", () => {
	it.each([
		[{ kind: "done" as const, tables: [{ name: "a", schema: "", kind: "table" as const, columns: [] }, { name: "v", schema: "", kind: "view" as const, columns: [] }] }, "Connected: 1 tables, 1 views"],
		[{ kind: "loading" as const }, "Testing…"],
		[{ kind: "failed" as const, code: "connect_failed", message: "Failed to connect", detail: "ECONNREFUSED" }, "Failed: Failed to connect (ECONNREFUSED)"],
		[{ kind: "failed" as const, code: "auth_failed", message: "Wrong password" }, "Failed: Wrong password"],
	])("says %j as %j", (state, text) => expect(testResultText(state)).toBe(text));
});

describe("connectionRows", () => {
	async function page(toml = TOML, secrets: Map<string, string> | null = new Map()) {
		const t = await setUp(toml, secrets);
		const el = document.body.createDiv();
		drawRows(el, connectionRows(t.app, t.store, t.schemas));
		const row = (name: string) => el.querySelector<HTMLElement>(`[data-connection="${name}"]`) as HTMLElement;
		const input = (key: string) => [...el.querySelectorAll<HTMLInputElement>(`input[data-key="${key}"]`)];
		const setting = (name: string) => [...el.querySelectorAll<HTMLElement>(".setting-item")].filter((s) => s.querySelector(".setting-item-name")?.textContent === name);
		return { ...t, el, row, input, setting };
	}

	it("lists each connection with what it reaches and whether it is read-only", async () => {
		const p = await page();
		expect(p.row("shop").querySelector(".setting-item-description")?.firstChild?.textContent).toBe("sqlite · shop.sqlite · read-only");
		expect(p.row("pgsql").querySelector(".setting-item-description")?.firstChild?.textContent).toBe("postgres · db.local:5432");
		expect(p.input("path").map((i) => i.value)).toEqual(["shop.sqlite"]);
		expect(p.input("port").map((i) => i.value)).toEqual(["5432"]);
	});

	it("says there are none yet", async () => {
		const p = await page("");
		expect(p.el.querySelector(".setting-item-heading .rb-settings-none")?.textContent).toBe("No connections yet.");
	});

	it("tests a connection by reading its schema, and shows the outcome", async () => {
		const p = await page();
		const result = p.row("shop").querySelector(".rb-connection-test") as HTMLElement;
		(p.row("shop").querySelector("button") as HTMLButtonElement).click();
		expect(result.textContent).toBe("Testing…");
		await until(() => result.textContent !== "Testing…");
		expect(result.textContent).toBe("Connected: 2 tables, 1 views");
		expect(result.hasClass("is-ok")).toBe(true);
		expect(p.schemas.peek("shop")).toMatchObject({ kind: "done" });
	});

	it("writes an edited field to user.toml, removes an emptied one, and refuses a port that is no number", async () => {
		const p = await page();
		const before = p.toml();
		type(p.input("host")[0], " db2.local ", "change");
		expect(await changed(p.toml, before)).toContain('host = "db2.local"');
		const second = p.toml();
		type(p.input("port")[0], "80a", "change");
		expect(notices).toEqual(["Runnable Blocks: port must be a positive whole number."]);
		type(p.input("port")[0], "", "change");
		expect(await changed(p.toml, second)).not.toContain("port");
	});

	it("keeps a password in Obsidian's secret storage and only its id in user.toml", async () => {
		const p = await page();
		const password = p.el.querySelector<HTMLInputElement>('input[type="password"]') as HTMLInputElement;
		const before = p.toml();
		type(password, "hunter2", "change");
		expect(p.secrets?.get("runnable-blocks-connection-pgsql")).toBe("hunter2");
		const after = await changed(p.toml, before);
		expect(after).not.toContain("hunter2");
		expect(p.store.settings.connections.pgsql).toMatchObject({ password: { secret: "runnable-blocks-connection-pgsql" } });
	});

	it("says so, and keeps nothing, where Obsidian has no secret storage", async () => {
		const p = await page(TOML, null);
		type(p.el.querySelector<HTMLInputElement>('input[type="password"]') as HTMLInputElement, "hunter2", "change");
		expect(notices).toEqual(["Runnable Blocks: This version of Obsidian has no secret storage; the secret was not saved."]);
		expect(p.toml()).toBe(TOML);
	});

	it("deletes a connection with its trash button, and toggles read-only", async () => {
		const p = await page();
		const before = p.toml();
		(p.row("shop").querySelector(".extra-setting-button") as HTMLElement).click();
		const after = await changed(p.toml, before);
		expect(after).not.toContain("[connections.shop]");
		expect(after).toContain("[connections.pgsql]");
		const readOnly = p.setting("Read-only").map((s) => s.querySelector<HTMLElement>(".checkbox-container") as HTMLElement);
		readOnly[1].click();
		await changed(p.toml, after);
		expect(p.store.settings.connections.pgsql.readonly).toBe(true);
	});

	it("adds a connection from the New connection row", async () => {
		const p = await page();
		const row = p.el.querySelector(".rb-new-connection") as HTMLElement;
		const [name, target] = [...row.querySelectorAll("input")];
		type(name, "wh");
		type(row.querySelector("select") as HTMLSelectElement, "mysql", "change");
		type(target, "10.0.0.5");
		const before = p.toml();
		(row.querySelector("button") as HTMLButtonElement).click();
		await changed(p.toml, before);
		expect(p.store.settings.connections.wh).toMatchObject({ type: "mysql", host: "10.0.0.5" });
	});
});

describe("NewConnectionModal", () => {
	async function open() {
		const t = await setUp();
		const answers: Array<string | null> = [];
		const modal = new NewConnectionModal(t.app, t.store, (name) => answers.push(name));
		modal.open();
		const inputs = [...modal.contentEl.querySelectorAll("input")];
		const add = modal.contentEl.querySelector("button.mod-cta") as HTMLButtonElement;
		return { ...t, modal, answers, inputs, add };
	}

	it("adds the connection and resolves with its name", async () => {
		const m = await open();
		type(m.inputs[0], "notes");
		type(m.inputs[1], "data/notes.sqlite");
		m.add.click();
		await until(() => m.answers.length > 0);
		expect(m.answers).toEqual(["notes"]);
		expect(m.store.settings.connections.notes).toMatchObject({ type: "sqlite", path: "data/notes.sqlite" });
		expect(m.modal.containerEl.isConnected).toBe(false);
	});

	it("stays open after a refused draft, and resolves with null when closed", async () => {
		const m = await open();
		type(m.inputs[0], "shop");
		type(m.inputs[1], "x.sqlite");
		m.add.click();
		await until(() => notices.length > 0);
		expect(m.modal.containerEl.isConnected).toBe(true);
		expect(m.answers).toEqual([]);
		m.modal.close();
		expect(m.answers).toEqual([null]);
	});
});
