import { defineVimCommands, toggleVimMode } from "../../../src/ui/vim";

type Ex = (cm: { cm6?: unknown }, params: { args?: string[]; argString?: string }) => void;

/** Stands in for Obsidian's `CodeMirrorAdapter.Vim`: records what the plugin defines. */
function withVim(run: (commands: Map<string, Ex>) => void): void {
	const commands = new Map<string, Ex>();
	const g = globalThis as unknown as { window?: unknown };
	const previous = g.window;
	g.window = { CodeMirrorAdapter: { Vim: { defineEx: (name: string, prefix: string, fn: Ex) => (expect(name.startsWith(prefix)).toBe(true), commands.set(name, fn)) } } };
	try {
		run(commands);
	} finally {
		g.window = previous;
	}
}

describe("vim ex commands", () => {
	const calls: string[] = [];
	const handlers = {
		run: () => calls.push("run"),
		runAll: () => calls.push("runAll"),
		cancel: () => calls.push("cancel"),
		env: (name: string) => calls.push(`env:${name}`),
	};
	beforeEach(() => (calls.length = 0));

	it("defines :run, :cancel and :env; :run-all arrives as run with argString -all", () => {
		withVim((commands) => {
			expect(defineVimCommands(handlers)).toBe(true);
			expect([...commands.keys()].sort()).toEqual(["cancel", "env", "run"]);
			commands.get("run")?.({}, { argString: "" });
			commands.get("run")?.({}, { argString: "-all" });
			commands.get("cancel")?.({}, {});
			commands.get("env")?.({}, { args: ["prod"], argString: " prod" });
			commands.get("env")?.({}, { argString: " staging " });
		});
		expect(calls).toEqual(["run", "runAll", "cancel", "env:prod", "env:staging"]);
	});

	it("does nothing without Obsidian's vim", () => {
		const g = globalThis as unknown as { window?: unknown };
		const previous = g.window;
		g.window = {};
		try {
			expect(defineVimCommands(handlers)).toBe(false);
		} finally {
			g.window = previous;
		}
	});
});

describe("Set vim", () => {
	it("flips Obsidian's vimMode setting and says the new state", () => {
		const config: Record<string, unknown> = {};
		const vault = { getConfig: (k: string) => config[k], setConfig: (k: string, v: unknown) => (config[k] = v) };
		expect(toggleVimMode(vault)).toBe(true);
		expect(config.vimMode).toBe(true);
		expect(toggleVimMode(vault)).toBe(false);
		expect(config.vimMode).toBe(false);
	});

	it("is null where the app offers no config API", () => {
		expect(toggleVimMode({})).toBeNull();
	});
});
