/**
 * For jsdom specs of the block views and their actions: a vault in memory shaped as Obsidian's App
 * shows it to `Notes` (no editor open, so reads and edits go through the vault), the context a
 * code-block processor gets in Reading view, and a `BlockHost` over a real engine whose transport
 * the test gives. Needs `obsidian` mocked by the browser host's shim (tests/e2e/host/obsidian-shim).
 */
import "./jsdom-codecs";
import type { App, MarkdownPostProcessorContext } from "obsidian";
import { scanFences } from "../../src/blocks/fences";
import { createEngine, type Engine, type EnginePorts } from "../../src/runner/engine";
import type { Transport } from "../../src/runner/transport";
import { defaultSettings } from "../../src/settings/user-settings";
import type { BlockHost } from "../../src/ui/block-host";
import { Notes } from "../../src/ui/notes";
import { TFile } from "../e2e/host/obsidian-shim";

/** Notes and binaries by vault path; `app` reads and writes them as Obsidian's vault does. */
export function memoryVault(notes: Record<string, string> = {}) {
	const files = new Map(Object.entries(notes));
	const binaries = new Map<string, ArrayBuffer>();
	const vault = {
		getAbstractFileByPath: (p: string) => (files.has(p) || binaries.has(p) ? new TFile(p) : null),
		cachedRead: (f: TFile) => Promise.resolve(files.get(f.path) ?? ""),
		process: (f: TFile, fn: (text: string) => string) => {
			files.set(f.path, fn(files.get(f.path) ?? ""));
			return Promise.resolve(files.get(f.path));
		},
		createBinary: (p: string, data: ArrayBuffer) => {
			if (files.has(p) || binaries.has(p)) return Promise.reject(new Error("File already exists."));
			binaries.set(p, data);
			return Promise.resolve(new TFile(p));
		},
	};
	const app = { vault, workspace: { getLeavesOfType: () => [] } } as unknown as App;
	return { app, files, binaries };
}

/** The context Reading view gives the processor of the fence that starts at or after `line` (0-based) of `markdown`. */
export function readingContext(markdown: string, sourcePath: string, line = 0): MarkdownPostProcessorContext {
	const fence = scanFences(markdown).find((f) => f.startLine >= line);
	if (!fence) throw new Error(`no fence at or after line ${line}`);
	return { sourcePath, getSectionInfo: () => ({ text: markdown, lineStart: fence.startLine, lineEnd: fence.endLine }) } as unknown as MarkdownPostProcessorContext;
}

/** A context without section info, as Obsidian gives for an element it cannot place (an embed, a canvas card). */
export function unplacedContext(sourcePath: string): MarkdownPostProcessorContext {
	return { sourcePath, getSectionInfo: () => null } as unknown as MarkdownPostProcessorContext;
}

/** A host over a real engine sending through `transport`, with the vault's notes. */
export function blockHost(app: App, transport: Transport): BlockHost & { engine: Engine } {
	const services: EnginePorts = {
		transport: () => transport,
		history: () => null,
		environment: () => ({ name: "dev", variables: {}, secretValues: [], secretNames: [], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 5000,
	};
	const engine = createEngine(services);
	return { app, engine, services, notes: new Notes(app), settings: defaultSettings, session: (path) => engine.sessions.note(path), runKeyLabel: () => "Ctrl+Enter" };
}

/** Resolves once `condition` holds, giving the event loop a turn between looks (no fixed sleep); fails naming `what` after `turns` turns. */
export async function until(what: string, condition: () => boolean, turns = 20_000): Promise<void> {
	for (let i = 0; i < turns; i++) {
		if (condition()) return;
		await new Promise((resolve) => setTimeout(resolve, 0));
	}
	throw new Error(`never happened: ${what}`);
}
