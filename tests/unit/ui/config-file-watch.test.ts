import type { App, EventRef } from "obsidian";
import { watchConfigFile } from "../../../src/ui/config-file-watch";

/** A vault with Obsidian's "raw" event: the listeners it holds, and a way to report a change. */
function rawVault() {
	const listeners = new Set<(path: string) => void>();
	const vault = {
		on: (_: "raw", cb: (path: string) => void) => (listeners.add(cb), cb as unknown as EventRef),
		offref: (ref: EventRef) => listeners.delete(ref as unknown as (path: string) => void),
	};
	return { app: { vault } as unknown as App, change: (path: string) => listeners.forEach((l) => l(path)), listeners };
}

describe("watching a file of the config folder", () => {
	it("calls back for that file only, whatever slashes the event path has", () => {
		const { app, change } = rawVault();
		const seen: number[] = [];
		watchConfigFile(app, ".obsidian/plugins/rb/user.toml", () => seen.push(1));
		change(".obsidian/plugins/rb/other.json");
		expect(seen).toEqual([]);
		change(".obsidian\\plugins//rb/user.toml");
		expect(seen).toEqual([1]);
	});

	it("stops listening when unsubscribed", () => {
		const { app, listeners } = rawVault();
		const stop = watchConfigFile(app, "user.toml", () => undefined);
		expect(listeners.size).toBe(1);
		stop();
		expect(listeners.size).toBe(0);
	});

	it("watches nothing where the vault has no raw event", () => {
		const stop = watchConfigFile({ vault: {} } as unknown as App, "user.toml", () => undefined);
		expect(() => stop()).not.toThrow();
	});
});
