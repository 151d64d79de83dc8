import { startConcurrencyServer, type ConcurrencyServer } from "../support/concurrency-server";
import { launchDesktopHost, lendHostWindow, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(60_000);

/**
 * "Run all blocks in the note" in the desktop host (production main.js, node:vm, jsdom, the node
 * transport): the blocks nothing connects are in flight together — the server holds every answer
 * until all three have arrived, so one block after another would never finish — and each block's
 * panel shows its own response.
 */
let host: DesktopHost;
let server: ConcurrencyServer;
const NOTE = "api/parallel.md";
const USER_TOML = ".obsidian/plugins/runnable-blocks/user.toml";

beforeAll(async () => {
	server = await startConcurrencyServer({ gather: 3 });
	host = await launchDesktopHost();
	await host.loadPlugin();
	lendHostWindow(host);
});

afterAll(async () => {
	await host?.close();
	await server?.close();
});

describe("run all in parallel in the plugin", () => {
	it("has the note's three independent blocks in flight at once (default parallel = 4), each panel with its own response", async () => {
		// The block timeout only bounds a run that never gathers: nothing waits for it to pass.
		const note = ["one", "two", "three"].map((a) => `\`\`\`http alias=${a} timeout=20000\nGET ${server.url}/${a}\n\`\`\``).join("\n\n");
		host.page.openEditor(note, NOTE);
		expect(host.page.runCommand("run-all-blocks")).toBe(true);
		const doc = host.document;
		const panels = await waitFor(
			() => `three finished panels (states: ${[...doc.querySelectorAll<HTMLElement>(".rb-panel")].map((p) => p.dataset.state).join(", ")})`,
			() => {
				const all = [...doc.querySelectorAll<HTMLElement>(".rb-panel")];
				return all.length === 3 && all.every((p) => p.dataset.state === "done") && all;
			},
			30_000,
		);
		expect(server.maxInFlight()).toBe(3);
		expect(panels.map((p) => p.textContent ?? "").map((t) => /"path":\s*"\/(\w+)"/.exec(t)?.[1])).toEqual(["one", "two", "three"]);
	});

	it("sets [general] parallel from the settings page, and refuses a number out of range with a notice", async () => {
		const doc = host.document;
		host.page.openSettings();
		const field = await waitFor("the settings page's parallel field", () => doc.querySelector<HTMLInputElement>(".rb-setting-parallel") ?? undefined);
		expect(field.value).toBe("4");
		const change = (value: string) => {
			field.value = value;
			field.dispatchEvent(new host.window.Event("change"));
		};
		change("0");
		expect(host.page.notices).toContain("Runnable Blocks: Blocks run at once is a whole number from 1 to 64.");
		expect(field.value).toBe("4");
		change("1");
		await waitFor("user.toml to say parallel = 1", () => /^parallel = 1$/m.test(host.page.files.get(USER_TOML) ?? ""));
	});
});
