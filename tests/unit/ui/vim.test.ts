import { EditorState } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import { editorInfoField, type MarkdownFileInfo } from "obsidian";
import { defineVimCommands, toggleVimMode, type VimTarget } from "../../../src/ui/vim";

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
	const show = (t: VimTarget | null) => (t ? `${t.path}@${t.line}` : "none");
	const handlers = {
		run: (t: VimTarget | null) => calls.push(`run ${show(t)}`),
		runAll: (t: VimTarget | null) => calls.push(`runAll ${show(t)}`),
		cancel: (t: VimTarget | null) => calls.push(`cancel ${show(t)}`),
		env: (name: string) => calls.push(`env:${name}`),
	};
	const active = (): VimTarget => ({ path: "active.md", note: [], line: 1, moveTo: () => undefined });
	/** What vim hands an ex command: `cm.cm6` is the CodeMirror view (only its state is read). */
	const cmOf = (doc: string, at: number, path: string) => ({
		cm6: { state: EditorState.create({ doc, selection: { anchor: at }, extensions: [editorInfoField.init(() => ({ file: { path } }) as unknown as MarkdownFileInfo)] }) } as unknown as EditorView,
	});
	beforeEach(() => (calls.length = 0));

	it("defines :run, :cancel and :env; :run-all arrives as run with argString -all; each acts on vim's editor", () => {
		withVim((commands) => {
			expect(defineVimCommands(handlers, active)).toBe(true);
			expect([...commands.keys()].sort()).toEqual(["cancel", "env", "run"]);
			const cm = cmOf("a\nb\nc", 3, "note.md");
			commands.get("run")?.(cm, { argString: "" });
			commands.get("run")?.(cm, { argString: "-all" });
			commands.get("cancel")?.(cm, {});
			commands.get("env")?.(cm, { args: ["prod"], argString: " prod" });
			commands.get("env")?.(cm, { argString: " staging " });
		});
		expect(calls).toEqual(["run note.md@1", "runAll note.md@1", "cancel note.md@1", "env:prod", "env:staging"]);
	});

	it("without vim's cm.cm6 (not Obsidian API) acts on the active editor read through the workspace", () => {
		withVim((commands) => {
			defineVimCommands(handlers, active);
			commands.get("run")?.({}, { argString: "" });
			commands.get("run")?.({}, { argString: "-all" });
			commands.get("cancel")?.({ cm6: {} }, {});
		});
		expect(calls).toEqual(["run active.md@1", "runAll active.md@1", "cancel active.md@1"]);
	});

	it("does nothing without Obsidian's vim, or with a vim that cannot define ex commands", () => {
		const g = globalThis as unknown as { window?: unknown };
		const previous = g.window;
		try {
			for (const win of [{}, { CodeMirrorAdapter: {} }, { CodeMirrorAdapter: { Vim: {} } }]) {
				g.window = win;
				expect(defineVimCommands(handlers, active)).toBe(false);
			}
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

	it.each([
		["no config API", {}],
		["getConfig without setConfig", { getConfig: () => false }],
		["setConfig without getConfig", { setConfig: () => undefined }],
	])("is null with %s (the command then says where Obsidian's own setting is)", (_what, vault) => {
		expect(toggleVimMode(vault)).toBeNull();
	});
});
