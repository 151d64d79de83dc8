import { startTestServer, type TestServer } from "../support/servers";
import { launchDesktopHost, panelOf, run, text, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(30_000);

let host: DesktopHost;
let server: TestServer;

beforeAll(async () => {
	server = await startTestServer();
	host = await launchDesktopHost();
});

afterAll(async () => {
	await host?.close();
	await server?.close();
});

describe("the desktop host loads code as Obsidian desktop does", () => {
	it("rejects an import() in a bundle, while require works", async () => {
		const probe = host.evaluate('module.exports = { http: require("http"), load: () => import("node:http") };', "probe.js", (name) => (name === "http" ? { node: true } : undefined));
		expect(probe.http).toEqual({ node: true });
		await expect((probe.load as () => Promise<unknown>)()).rejects.toMatchObject({ code: "ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING" });
	});
});

describe("a failure while preparing a run", () => {
	it("ends the block in failed with the message, and the next run (require restored) succeeds", async () => {
		await expect(host.loadPlugin()).resolves.toEqual(["http", "db", "textdiff", "http-response"]);
		host.page.renderReading(`\`\`\`http alias=first\nGET ${server.url}/json\n\`\`\``, "api/first.md");
		host.failRequireOnce("http", "Cannot find module 'http'");

		await expect(run(host.document, "first")).resolves.toBe("failed");
		const panel = panelOf(host.document, "first");
		expect(text(panel, ".rb-error")).toBe("Could not run: Cannot find module 'http'");
		expect(text(panel, ".rb-tab-content .rb-error-message")).toBe("Could not run: Cannot find module 'http'");
		expect(server.requests).toHaveLength(0);

		// Not cached: the next run creates the transport again and goes out.
		await expect(run(host.document, "first")).resolves.toBe("done");
		expect(text(panel, ".rb-transport")).toBe("node");
		expect(text(panel, ".rb-status")).toBe("200 OK");
		expect(text(panel, ".rb-error")).toBeNull();
		expect(server.requests.map((r) => r.url)).toEqual(["/json"]);
		expect(host.required.filter((n) => n === "http")).toHaveLength(2);
	});
});
