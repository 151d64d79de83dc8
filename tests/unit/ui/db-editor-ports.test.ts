/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import { SchemaCache } from "../../../src/runner/db/schema-cache";
import { refreshSchemas, slashDb } from "../../../src/ui/db-editor-ports";
import { PluginDb } from "../../../src/ui/db/plugin-db";
import { SettingsStore } from "../../../src/ui/settings-store";
import { sqliteImage } from "../../support/db-engine";
import { memoryVault } from "../../support/memory-vault";
import { installDomHelpers, Keymap, notices, Scope } from "../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();

const DIR = ".obsidian/plugins/runnable-blocks";
const TOML = `[connections.shop]
type = "sqlite"
path = "shop.sqlite"

[connections.views]
type = "sqlite"
path = "views.sqlite"

[connections.broken]
type = "sqlite"
path = "notes.md"
`;

async function setUp(toml = TOML) {
	const scope = new Scope();
	const vault = memoryVault(
		{
			[`${DIR}/user.toml`]: toml,
			"shop.sqlite": await sqliteImage("CREATE VIEW cheap AS SELECT 1; CREATE TABLE books (id INTEGER); CREATE TABLE authors (id INTEGER);"),
			"views.sqlite": await sqliteImage("CREATE VIEW only_view AS SELECT 1 AS x;"),
			"notes.md": "# not a database, but long enough to be read as a header that is not SQLite's".repeat(4),
		},
		{ scope, keymap: new Keymap(scope) },
	);
	const store = new SettingsStore(vault.app, DIR);
	await store.load();
	const db = new PluginDb(vault.app, store, { snapshot: () => sqliteImage("CREATE TABLE runs (id INTEGER);") }, () => null);
	const schemas = new SchemaCache(() => db.deps());
	return { vault, store, schemas, port: slashDb(vault.app, store, schemas) };
}

beforeEach(() => {
	notices.length = 0;
	document.body.empty();
});

describe("/DB Query's port", () => {
	it("offers the connections of user.toml and run history", async () => {
		const { port } = await setUp();
		expect(port.connections()).toEqual(["shop", "views", "broken", "history"]);
	});

	it("names the connection's first table for the query it writes, a view only where there is no table", async () => {
		const { port } = await setUp();
		await expect(port.firstTable("shop")).resolves.toBe("authors");
		await expect(port.firstTable("views")).resolves.toBe("only_view");
	});

	it("names no table for a connection whose schema cannot be read, or that does not exist", async () => {
		const { port } = await setUp();
		await expect(port.firstTable("broken")).resolves.toBeUndefined();
		await expect(port.firstTable("gone")).resolves.toBeUndefined();
	});

	it("opens the New connection form, and answers with the connection added", async () => {
		const { port, store } = await setUp();
		const answer = port.newConnection();
		const inputs = [...document.querySelectorAll<HTMLInputElement>(".modal input")];
		inputs[0].value = "notes";
		inputs[0].dispatchEvent(new Event("input"));
		inputs[1].value = "notes.sqlite";
		inputs[1].dispatchEvent(new Event("input"));
		document.querySelector<HTMLButtonElement>(".modal button.mod-cta")?.click();
		await expect(answer).resolves.toBe("notes");
		expect(store.settings.connections.notes).toMatchObject({ type: "sqlite", path: "notes.sqlite" });
	});

	it("answers null when the form is closed without adding", async () => {
		const { port } = await setUp();
		const answer = port.newConnection();
		window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
		await expect(answer).resolves.toBeNull();
	});
});

describe("refreshSchemas", () => {
	it("reads every connection's schema again and names those that failed, with why", async () => {
		const { schemas } = await setUp();
		await refreshSchemas(schemas);
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatch(/^Runnable Blocks: broken: .+/);
		expect(notices[0]).not.toMatch(/shop|views|history/);
		expect(schemas.peek("shop")).toMatchObject({ kind: "done" });
	});

	it("names the connections it read when all succeeded", async () => {
		const { schemas } = await setUp(TOML.slice(0, TOML.indexOf("[connections.broken]")));
		await refreshSchemas(schemas);
		expect(notices).toEqual(["Runnable Blocks: Database schemas read again: shop, views, history"]);
	});

	it("says none were read where there are no connections", async () => {
		await refreshSchemas(new SchemaCache(() => undefined));
		expect(notices).toEqual(["Runnable Blocks: Database schemas read again: None"]);
	});
});
