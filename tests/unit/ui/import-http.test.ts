/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import type { App } from "obsidian";
import { installDomHelpers, notices, TFile } from "../../e2e/host/obsidian-shim";
import { parseNote } from "../../../src/blocks";
import { importHttpFile, importPicked } from "../../../src/ui/import-http";
import { eventually } from "../../e2e/support/eventually";
import { loadedStore, memoryAdapter, USER_TOML } from "../../support/settings-vault";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();

const ENV = {
	dev: { Security: { Auth: { svc: { Type: "OAuth2", "Grant Type": "Client Credentials", "Token URL": "https://id.example.com/token", "Client ID": "cli", "Client Secret": "plain-secret-value" } } } },
};

/** A vault whose active note is in `api/`, with user.toml in the plugin folder; notes the plugin creates and opens are recorded. */
async function setUp(toml = "# mine\n", notes: string[] = []) {
	notices.length = 0;
	const created = new Map<string, string>(notes.map((p) => [p, ""]));
	const opened: string[] = [];
	const adapter = memoryAdapter({ [USER_TOML]: toml });
	const app = {
		vault: {
			adapter,
			getAbstractFileByPath: (p: string) => (created.has(p) ? new TFile(p) : null),
			create: (p: string, text: string) => (created.set(p, text), Promise.resolve(new TFile(p))),
		},
		fileManager: { getNewFileParent: (source: string) => ({ path: source.includes("/") ? source.slice(0, source.lastIndexOf("/")) : "/" }) },
		workspace: { getActiveFile: () => new TFile("api/index.md"), getLeaf: () => ({ openFile: (f: TFile) => (opened.push(f.path), Promise.resolve()) }) },
	} as unknown as App;
	const store = await loadedStore(app);
	return { app, store, created, opened, toml: () => adapter.files.get(USER_TOML) ?? "", notice: () => notices.join("\n") };
}

/** A picked file, as the file input gives it: a name and its text. */
const picked = (name: string, text: string | Error) => ({ name, text: () => (text instanceof Error ? Promise.reject(text) : Promise.resolve(text)) }) as unknown as File;

describe("importPicked", () => {
	it("makes each .http file a note beside the active one, a fence per request, opens the first and says what it did", async () => {
		const s = await setUp();
		await importPicked(s.app, s.store, [picked("users.http", "GET http://127.0.0.1/users\n\n###\n\nPOST http://127.0.0.1/users\n"), picked("health.rest", "GET http://127.0.0.1/health\n")]);
		expect([...s.created.keys()]).toEqual(["api/users.md", "api/health.md"]);
		expect(parseNote(s.created.get("api/users.md") ?? "").map((b) => b.kind === "http" && b.http.method)).toEqual(["GET", "POST"]);
		expect(s.opened).toEqual(["api/users.md"]);
		expect(notices).toEqual(["Runnable Blocks: Imported users.http as api/users.md\nImported health.rest as api/health.md"]);
	});

	it("never overwrites a note: the name gets a number", async () => {
		const s = await setUp("", ["api/users.md", "api/users 1.md"]);
		await importPicked(s.app, s.store, [picked("users.http", "GET http://127.0.0.1/\n")]);
		expect(s.opened).toEqual(["api/users 2.md"]);
	});

	it("says which files it could not read or use, and imports the others", async () => {
		const s = await setUp();
		await importPicked(s.app, s.store, [picked("gone.http", new Error("permission denied")), picked("notes.txt", "x"), picked("http-client.env.json", "{nope"), picked("ok.http", "GET http://127.0.0.1/\n")]);
		expect([...s.created.keys()]).toEqual(["api/ok.md"]);
		expect(s.notice()).toContain("Could not import gone.http: permission denied");
		expect(s.notice()).toContain("notes.txt was not read: pick .http, .rest or env (.json) files.");
		expect(s.notice()).toMatch(/http-client\.env\.json was not read: it is not JSON \(.+\)\./);
	});

	it("adds the env files' auth configurations to user.toml without their secret values, and names the secrets to set", async () => {
		const s = await setUp();
		await importPicked(s.app, s.store, [picked("http-client.env.json", JSON.stringify(ENV))]);
		expect(s.toml()).toMatch(/^# mine\n/);
		expect(s.toml()).toContain("[environments.dev.auth.svc]");
		expect(s.toml()).not.toContain("plain-secret-value");
		expect(s.store.settings.auth.dev.svc).toMatchObject({ grant: "client_credentials", clientId: "cli" });
		expect(s.notice()).toContain(`Added to ${USER_TOML}: [environments.dev.auth.svc]`);
		expect(s.notice()).toMatch(/Set these secrets in the environment's settings \(their values were not imported\): \S+/);
	});

	it("keeps a configuration user.toml already has, and says so", async () => {
		const mine = '[environments.dev.auth.svc]\ntype = "oauth2"\ngrant = "client_credentials"\ntoken_url = "https://mine/t"\nclient_id = "mine"\n';
		const s = await setUp(mine);
		await importPicked(s.app, s.store, [picked("http-client.env.json", JSON.stringify(ENV))]);
		expect(s.toml()).toBe(mine);
		expect(s.notice()).toContain("Kept as they were (already in user.toml, not overwritten): [environments.dev.auth.svc]");
	});

	it("leaves a user.toml that does not parse as it was, and says so", async () => {
		const s = await setUp("[general\n");
		await importPicked(s.app, s.store, [picked("http-client.env.json", JSON.stringify(ENV))]);
		expect(s.toml()).toBe("[general\n");
		expect(s.notice()).toContain(`The auth configurations were not added: ${USER_TOML} does not parse, so it was not changed.`);
	});

	it("says when the env files hold no auth configuration", async () => {
		const s = await setUp();
		await importPicked(s.app, s.store, [picked("http-client.env.json", JSON.stringify({ dev: { base: "x" } }))]);
		expect(s.notice()).toBe("Runnable Blocks: The env files hold no auth configurations.");
	});
});

describe("importHttpFile", () => {
	it("opens a file picker for .http, .rest and env files, and imports what is picked", async () => {
		const s = await setUp();
		// Watched, not replaced: jsdom's click on a file input opens nothing; the picker is the element clicked.
		const click = jest.spyOn(HTMLElement.prototype, "click");
		importHttpFile(s.app, s.store);
		const picker = click.mock.contexts[0] as HTMLInputElement | undefined;
		click.mockRestore();
		expect(picker?.type).toBe("file");
		expect(picker?.accept).toBe(".http,.rest,.json");
		expect(picker?.multiple).toBe(true);
		Object.defineProperty(picker, "files", { value: [picked("a.http", "GET http://127.0.0.1/\n")] });
		picker?.dispatchEvent(new Event("change"));
		await eventually(() => expect(s.opened).toEqual(["api/a.md"]));
	});
});
