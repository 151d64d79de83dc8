/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "obsidian";
import { PluginServices } from "../../../src/ui/plugin-services";
import { t } from "../../../src/ui/strings";
import { FileSystemAdapter, installDomHelpers, notices, Platform, TFile } from "../../e2e/host/obsidian-shim";
import { startTestServer, type TestServer } from "../../support/servers";
import { loadedStore, memoryAdapter, PLUGIN_DIR, USER_TOML } from "../../support/settings-vault";
import { doneOutcome, preparedRequest } from "../../support/transport-requests";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();
jest.setTimeout(20_000);

const desktop = Platform.isDesktopApp;
afterEach(() => (Platform.isDesktopApp = desktop));

let server: TestServer;
beforeAll(async () => {
	server = await startTestServer();
});
afterAll(async () => {
	await server.close();
});

/** The plugin's services over a vault in memory: user.toml as given, binary files, secrets by id. */
async function services(toml: string, opts: { binaries?: Record<string, Uint8Array>; secrets?: Record<string, string>; adapter?: object } = {}) {
	const text = memoryAdapter({ [USER_TOML]: toml });
	const binaries = new Map(Object.entries(opts.binaries ?? {}));
	const adapter = Object.assign(opts.adapter ?? {}, text, {
		exists: (p: string) => Promise.resolve(text.files.has(p) || binaries.has(p)),
		readBinary: (p: string) => Promise.resolve((binaries.get(p) ?? new Uint8Array()).slice().buffer),
	});
	const app = {
		vault: { adapter, getAbstractFileByPath: (p: string) => (binaries.has(p) ? new TFile(p) : null) },
		secretStorage: { getSecret: (id: string) => opts.secrets?.[id] ?? null, setSecret: () => undefined, listSecrets: () => [] },
	} as unknown as App;
	const store = await loadedStore(app);
	return new PluginServices(app, store, PLUGIN_DIR);
}

describe("PluginServices: the transport", () => {
	it("is the node transport on desktop by default, made once, and closed with the services", async () => {
		Platform.isDesktopApp = true;
		const s = await services("");
		const transport = s.transport();
		expect(transport.name).toBe("node");
		expect(s.transport()).toBe(transport);
		expect(doneOutcome(await transport.send(preparedRequest(`${server.url}/json`))).head.status).toBe(200);
		await s.close();
	});

	it("talks TLS to a server as user.toml's [tls.*] says: the CA a vault file holds, read through the adapter", async () => {
		Platform.isDesktopApp = true;
		const s = await services('[tls."localhost"]\nca = "/certs/dev-ca.pem"\n');
		const strict = await services("");
		const adapter = (s as unknown as { app: { vault: { adapter: { files: Map<string, string> } } } }).app.vault.adapter;
		adapter.files.set("certs/dev-ca.pem", readFileSync(join(__dirname, "../../support/tls/cert.pem"), "utf8"));
		expect(doneOutcome(await s.transport().send(preparedRequest(`${server.httpsUrl}/json`))).head.status).toBe(200);
		expect(await strict.transport().send(preparedRequest(`${server.httpsUrl}/json`))).toMatchObject({ kind: "failed", code: "connect_failed" });
		await Promise.all([s.close(), strict.close()]);
	});

	it("is Obsidian's requestUrl off desktop, and where the settings ask for it", async () => {
		Platform.isDesktopApp = false;
		expect((await services("")).transport().name).toBe("obsidian");
		Platform.isDesktopApp = true;
		expect((await services('[general]\ntransport = "obsidian"\n')).transport().name).toBe("obsidian");
	});

	it("is fetch, made once, where the settings choose it, on any platform; SSE streams through it too", async () => {
		Platform.isDesktopApp = false;
		const s = await services('[general]\ntransport = "fetch"\n');
		const fetchTransport = s.transport();
		expect(fetchTransport.name).toBe("fetch");
		expect(s.transport()).toBe(fetchTransport);
		expect(s.kinds().sse?.streamingTransport?.()).toBe(fetchTransport);
	});
});

describe("PluginServices: what runs read from the settings", () => {
	it("gives the active environment's variables, secrets from Obsidian's secret storage, unset ones by name", async () => {
		const s = await services('[general]\nenvironment = "dev"\n\n[environments.dev]\nbase = "http://api.test"\ntoken = { secret = "dev-token" }\nkey = { secret = "missing" }\n', { secrets: { "dev-token": "s3cr3t" } });
		expect(s.environment()).toMatchObject({ name: "dev", variables: { base: "http://api.test", token: "s3cr3t" }, secretValues: ["s3cr3t"], secretNames: ["token", "key"], unsetSecretNames: ["key"] });
	});

	it("gives the default timeout and how many blocks run at once", async () => {
		const s = await services("[general]\ntimeout = 1234\nparallel = 3\n");
		expect([s.defaultTimeoutMs(), s.parallel()]).toEqual([1234, 3]);
	});
});

describe("PluginServices: body files", () => {
	const cover = new Uint8Array([1, 2, 3]);

	it("reads a vault file's bytes, and null for a missing one", async () => {
		const files = (await services("", { binaries: { "img/cover.png": cover } })).files();
		expect(await files.read("img/cover.png")).toEqual(cover);
		expect(await files.read("img/none.png")).toBeNull();
	});

	it("names a file by its path on disk only on desktop with a file-system vault, and only a file that exists", async () => {
		Platform.isDesktopApp = true;
		const onDisk = (await services("", { binaries: { "img/cover.png": cover }, adapter: new FileSystemAdapter("/home/me/vault") })).files();
		expect(onDisk.locate?.("img/cover.png")).toBe("/home/me/vault/img/cover.png");
		expect(onDisk.locate?.("img/none.png")).toBeNull();
		expect("locate" in (await services("", { binaries: { "img/cover.png": cover } })).files()).toBe(false);
		Platform.isDesktopApp = false;
		expect("locate" in (await services("", { binaries: { "img/cover.png": cover }, adapter: new FileSystemAdapter("/home/me/vault") })).files()).toBe(false);
	});
});

describe("PluginServices: the .env file of {{$dotenv}}", () => {
	it("is the one in the note's folder, read through the adapter (the vault lists no dot files); none is null", async () => {
		const s = await services("");
		const adapter = (s as unknown as { app: { vault: { adapter: { files: Map<string, string> } } } }).app.vault.adapter;
		adapter.files.set("api/.env", "TOKEN=t1\n");
		adapter.files.set(".env", "TOKEN=root\n");
		await expect(s.dotenv("api/users.md")).resolves.toBe("TOKEN=t1\n");
		await expect(s.dotenv("top.md")).resolves.toBe("TOKEN=root\n");
		await expect(s.dotenv("other/x.md")).resolves.toBeNull();
	});
});

describe("PluginServices: sign-in", () => {
	it("says so when a sign-in link arrives and no sign-in waits for it", async () => {
		const s = await services("");
		const before = notices.length;
		s.receiveAuthRedirect({ code: "abc", state: "xyz" });
		expect(notices.slice(before)).toEqual([expect.stringContaining(t("authNoSignInWaiting"))]);
	});
});
