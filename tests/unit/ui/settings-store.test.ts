import type { App } from "obsidian";
import { SettingsStore } from "../../../src/ui/settings-store";

const PATH = ".obsidian/plugins/runnable-blocks/user.toml";

/** A vault with user.toml in its config folder; `events` adds the undocumented "raw" event (Obsidian's) or leaves it out. */
function vault(text: string, events: boolean) {
	const files = new Map([[PATH, text]]);
	const handlers: Array<(path: string) => void> = [];
	const adapter = { exists: (p: string) => Promise.resolve(files.has(p)), read: (p: string) => Promise.resolve(files.get(p) ?? ""), write: (p: string, d: string) => Promise.resolve(void files.set(p, d)) };
	const v = events ? { adapter, on: (_name: string, cb: (path: string) => void) => (handlers.push(cb), { cb }), offref: () => handlers.splice(0) } : { adapter };
	return { app: { vault: v } as unknown as App, files, raw: (path: string) => handlers.forEach((h) => h(path)) };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe("user.toml changes made outside the plugin", () => {
	it("are picked up through Obsidian's \"raw\" vault event where it exists", async () => {
		const { app, files, raw } = vault('[general]\ntimeout = 100\n', true);
		const store = new SettingsStore(app, ".obsidian/plugins/runnable-blocks");
		await store.load();
		const stop = store.watch();
		files.set(PATH, '[general]\ntimeout = 200\n');
		raw(PATH);
		await settle();
		expect(store.settings.general.timeout).toBe(200);
		stop();
	});

	it("without the event (not public API), watching is a no-op and load(), the Reload settings command, still reads the file", async () => {
		const { app, files } = vault('[general]\ntimeout = 100\n', false);
		const store = new SettingsStore(app, ".obsidian/plugins/runnable-blocks");
		const stop = store.watch();
		expect(() => stop()).not.toThrow();
		await store.load();
		expect(store.settings.general.timeout).toBe(100);
		files.set(PATH, '[general]\ntimeout = 300\n');
		await expect(store.load()).resolves.toBe(true);
		expect(store.settings.general.timeout).toBe(300);
	});
});
