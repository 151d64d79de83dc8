/**
 * The test host page: provides `obsidian` and CodeMirror to the production main.js the way
 * Obsidian does (CommonJS with an injected require), and renders notes in a reading view
 * through the plugin's code block processors.
 */
import * as cmState from "@codemirror/state";
import * as cmView from "@codemirror/view";
import { history, undo } from "@codemirror/commands";
import { scanFences } from "../../../src/blocks/fences";
import * as obsidian from "./obsidian-shim";

obsidian.installDomHelpers();

const files = new Map<string, string>();
const binaries = new Map<string, ArrayBuffer>();
const app = {
	vault: {
		configDir: ".obsidian",
		adapter: {
			exists: (p: string) => Promise.resolve(files.has(p) || binaries.has(p)),
			read: (p: string) => Promise.resolve(files.get(p) ?? ""),
			write: (p: string, d: string) => Promise.resolve(void files.set(p, d)),
			readBinary: (p: string) => Promise.resolve(binaries.get(p) ?? new ArrayBuffer(0)),
			writeBinary: (p: string, d: ArrayBuffer) => Promise.resolve(void binaries.set(p, d)),
			rename: (a: string, b: string) => {
				const d = binaries.get(a);
				if (d) binaries.set(b, d);
				binaries.delete(a);
				return Promise.resolve();
			},
			remove: (p: string) => Promise.resolve(void (files.delete(p) || binaries.delete(p))),
		},
		on: () => ({}),
		getAbstractFileByPath: (p: string) => (files.has(p) ? new obsidian.TFile(p) : null),
		cachedRead: (f: obsidian.TFile) => Promise.resolve(files.get(f.path) ?? ""),
		process: async (f: obsidian.TFile, fn: (t: string) => string) => {
			files.set(f.path, fn(files.get(f.path) ?? ""));
			return files.get(f.path);
		},
	},
	workspace: {
		onLayoutReady: (cb: () => void) => cb(),
		// The open editor, if any, as Obsidian's markdown leaf.
		getLeavesOfType: () => (editor ? [{ view: new obsidian.MarkdownView(new obsidian.TFile(editorPath), new obsidian.Editor(editor)) }] : []),
		on: () => ({}),
		// The plugin changed its editor extensions: later editors pick them up (openEditor reads them).
		updateOptions: () => undefined,
	},
	secretStorage: { getSecret: () => null },
};

let plugin: obsidian.Plugin | null = null;

async function loadPlugin(): Promise<string[]> {
	const code = await (await fetch("/main.js")).text();
	const module = { exports: {} as Record<string, unknown> };
	const modules: Record<string, unknown> = { obsidian, "@codemirror/state": cmState, "@codemirror/view": cmView };
	const require = (name: string) => {
		if (name in modules) return modules[name];
		throw new Error(`main.js required "${name}", which Obsidian does not provide`);
	};
	new Function("module", "exports", "require", code)(module, module.exports, require);
	const Ctor = (module.exports.default ?? module.exports) as new (a: unknown, m: unknown) => obsidian.Plugin;
	plugin = new Ctor(app, { id: "runnable-blocks", version: "0.1.0" });
	plugin.load();
	return [...plugin.processors.keys()];
}

/** Renders a note like Reading view: each fence through its processor, other text as paragraphs. */
function renderReading(markdown: string, sourcePath = "note.md"): number {
	files.set(sourcePath, markdown);
	const root = document.getElementById("reading") as HTMLElement;
	root.empty();
	const lines = markdown.split("\n");
	let line = 0;
	let rendered = 0;
	for (const fence of scanFences(markdown)) {
		const text = lines.slice(line, fence.startLine).join("\n").trim();
		if (text) root.createEl("p", { text });
		const section = root.createDiv({ cls: "markdown-preview-section" });
		const handler = plugin?.processors.get(fence.lang);
		if (handler) {
			const ctx = {
				sourcePath,
				getSectionInfo: () => ({ text: markdown, lineStart: fence.startLine, lineEnd: fence.endLine }),
				addChild: (c: obsidian.Component) => c.load(),
			};
			handler(fence.content, section, ctx);
			rendered++;
		} else section.createEl("pre", { text: fence.content });
		line = fence.endLine + 1;
	}
	return rendered;
}

/** Opens the note in a real CodeMirror editor with the plugin's editor extensions (Source mode). */
function openEditor(markdown: string, sourcePath = "note.md"): void {
	files.set(sourcePath, markdown);
	editorPath = sourcePath;
	const parent = document.getElementById("editor") as HTMLElement;
	parent.empty();
	editor?.destroy();
	editor = new cmView.EditorView({
		parent,
		state: cmState.EditorState.create({
			doc: markdown,
			extensions: [
				obsidian.editorInfoField,
				obsidian.editorLivePreviewField,
				history(),
				...((plugin?.extensions ?? []) as cmState.Extension[]),
				// Stands for Obsidian's own handling of the same keys: it counts what falls through.
				cmView.keymap.of(["Mod-Enter", "Mod-Shift-c", "Mod-."].map((key) => ({ key, run: () => (fellThrough.push(key), true) }))),
			],
		}),
	});
}

let editor: cmView.EditorView | null = null;
let editorPath = "note.md";

function undoEditor(): boolean {
	return editor ? undo(editor) : false;
}
const fellThrough: string[] = [];

function editorCursorLine(): number {
	return editor ? editor.state.doc.lineAt(editor.state.selection.main.head).number - 1 : -1;
}

function editorText(): string {
	return editor?.state.doc.toString() ?? "";
}

function setTheme(theme: "light" | "dark"): void {
	document.body.classList.toggle("theme-dark", theme === "dark");
	document.body.classList.toggle("theme-light", theme === "light");
}

(window as unknown as Record<string, unknown>).__host = { loadPlugin, renderReading, openEditor, editorText, editorCursorLine, undoEditor, fellThrough, setTheme, notices: obsidian.notices, files, binaries };
