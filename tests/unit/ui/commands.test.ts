import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "obsidian";
import { parseNote, type NoteBlock } from "../../../src/blocks";
import { ACTION_SPECS, ACTIONS, type ActionId } from "../../../src/settings/keymap";
import { defaultSettings } from "../../../src/settings/user-settings";
import type { ActionTarget } from "../../../src/ui/action-target";
import { isAvailable, performAction, registerCommands, type ActionEffects, type CommandDeps } from "../../../src/ui/commands";
import { LANGUAGES, setLanguage, tableFor } from "../../../src/ui/strings";

const NOTE = "intro\n```http alias=a\nGET https://x.test/a\n```\nprose\n```textdiff\nleft\n```\n```http\nGET https://x.test/b\n```\n```db alias=q\nSELECT 1\n```\n";

/** Effects that record what the dispatcher asked for; `running` says which blocks a cancel finds running. */
function recorder(running: (b: NoteBlock) => boolean = () => true) {
	const calls: string[] = [];
	const name = (b: NoteBlock) => b.alias ?? `#${b.index}`;
	const fx: ActionEffects = {
		run: (path, _note, targets, force) => calls.push(`run ${path} ${targets.map(name).join(",")}${force ? " force" : ""}`),
		cancel: (path, b) => (calls.push(`cancel ${path} ${name(b)}`), running(b)),
		copyAsCurl: (path, _note, b) => calls.push(`curl ${path} ${name(b)}`),
		explain: (path, _note, b) => calls.push(`explain ${path} ${name(b)}`),
		searchBlocks: () => calls.push("search"),
		switchEnvironment: () => calls.push("env"),
		newVariable: () => calls.push("variable"),
		toggleChat: () => calls.push("chat"),
		syncVault: () => calls.push("sync"),
		clearAuthTokens: () => calls.push("clear auth"),
		pin: (path, b) => calls.push(`pin ${path} ${name(b)}`),
		comparePin: (path, b) => calls.push(`compare pin ${path} ${name(b)}`),
	};
	return { calls, fx };
}

function at(line: number, moves: number[] = []): ActionTarget {
	return { path: "n.md", note: parseNote(NOTE), line, moveTo: (l) => moves.push(l) };
}

describe("performAction: the one dispatcher", () => {
	it.each<[ActionId, number, string[], boolean]>([
		["block.run", 2, ["run n.md a"], true],
		["block.force_run", 2, ["run n.md a force"], true],
		["block.copy_curl", 9, ["curl n.md #2"], true],
		["block.copy_curl", 13, [], false],
		["block.pin", 2, ["pin n.md a"], true],
		["block.pin", 13, [], false],
		["block.compare_pin", 9, ["compare pin n.md #2"], true],
		["block.compare_pin", 13, [], false],
		["block.run_all", 2, ["run n.md a,#2,q"], true],
		["block.cancel", 2, ["cancel n.md a"], true],
		["block.run", 0, [], false],
		["block.run", 6, [], false],
		["block.explain", 2, [], false],
		["block.explain", 13, ["explain n.md q"], true],
		["search.blocks", 0, ["search"], true],
		["env.switch", 0, ["env"], true],
		["env.new_variable", 0, ["variable"], true],
		["chat.toggle", 0, ["chat"], true],
		["vcs.sync", 0, ["sync"], true],
		["auth.clear", 0, ["clear auth"], true],
		["vcs.commit", 0, [], false],
		["vcs.branch", 0, [], false],
	])("%s with the cursor on line %i", (id, line, calls, acted) => {
		const r = recorder();
		expect(performAction(id, at(line), r.fx)).toBe(acted);
		expect(r.calls).toEqual(calls);
	});

	it("runs only blocks whose kind has a runner: a textdiff block is neither a target nor part of run all", () => {
		const r = recorder();
		expect(performAction("block.run", at(6), r.fx)).toBe(false);
		performAction("block.run_all", at(6), r.fx);
		expect(r.calls).toEqual(["run n.md a,#2,q"]);
	});

	it("cancels every block of the note outside a block, saying whether any was running", () => {
		const r = recorder((b) => b.alias === "a");
		expect(performAction("block.cancel", at(0), r.fx)).toBe(true);
		expect(r.calls).toEqual(["cancel n.md a", "cancel n.md #1", "cancel n.md #2", "cancel n.md q"]);
		expect(performAction("block.cancel", at(9), recorder(() => false).fx)).toBe(false);
	});

	it("goes to block N of the note, and not past the last", () => {
		const moves: number[] = [];
		expect(performAction("block.goto.3", at(0, moves), recorder().fx)).toBe(true);
		expect(moves).toEqual([8]);
		expect(performAction("block.goto.5", at(0, moves), recorder().fx)).toBe(false);
	});

	it("acts on nothing without a note, except the global actions", () => {
		const r = recorder();
		const acted = ACTIONS.filter((a) => performAction(a.id, null, r.fx)).map((a) => a.id);
		expect(acted).toEqual(["search.blocks", "env.switch", "env.new_variable", "chat.toggle", "vcs.sync", "auth.clear"]);
	});
});

describe("copy as curl", () => {
	const STREAMS = "```http alias=feed\nSSE https://x.test/events\n```\n```http alias=chat\nWEBSOCKET wss://x.test/ws\n```\n";
	const inStreams = (line: number): ActionTarget => ({ path: "s.md", note: parseNote(STREAMS), line, moveTo: () => undefined });
	const copyCurl = ACTION_SPECS.find((a) => a.id === "block.copy_curl")!;

	it("copies an SSE block, which exports as curl -N, and leaves the chord to Obsidian on a WebSocket block, which does not", () => {
		const { calls, fx } = recorder();
		expect([performAction("block.copy_curl", inStreams(1), fx), performAction("block.copy_curl", inStreams(4), fx)]).toEqual([true, false]);
		expect(calls).toEqual(["curl s.md feed"]);
		expect([isAvailable(copyCurl, inStreams(1)), isAvailable(copyCurl, inStreams(4))]).toEqual([true, false]);
	});
});

describe("the palette", () => {
	const spec = (id: ActionId) => ACTION_SPECS.find((a) => a.id === id)!;
	it.each<[ActionId, number, boolean]>([
		["block.run", 2, true],
		["block.run_all", 6, false],
		["block.cancel", 0, false],
		["block.goto.3", 0, true],
		["block.goto.5", 0, false],
		["search.blocks", 0, true],
		["block.explain", 13, true],
		["block.explain", 2, false],
		["block.copy_curl", 2, true],
		["block.copy_curl", 13, false],
		["block.pin", 2, true],
		["block.compare_pin", 13, false],
	])("offers %s with the cursor on line %i: %s", (id, line, offered) => {
		expect(isAvailable(spec(id), at(line))).toBe(offered);
	});

	it("keeps every command id users may have bound a hotkey to", () => {
		expect(ACTION_SPECS.flatMap((a) => (a.command ? [a.command.id] : []))).toEqual([
			"run-block",
			"run-all-blocks",
			"cancel-block",
			"copy-block-as-curl",
			"explain-block",
			"force-run-block",
			"pin-response",
			"compare-with-pinned",
			"search-blocks",
			"switch-environment",
			"new-variable",
			"toggle-chat",
			"sync-vault-repository",
			"clear-auth-tokens",
			...Array.from({ length: 9 }, (_, i) => `go-to-block-${i + 1}`),
		]);
	});
});

/** The names registerCommands gives the palette, with the UI in `language`. */
function paletteNames(language: string): string[] {
	setLanguage(language);
	const names: string[] = [];
	const noop = () => undefined;
	const plugin = {
		app: { scope: { register: noop, unregister: noop }, workspace: { onLayoutReady: noop, updateOptions: noop } },
		addCommand: (c: { name: string }) => names.push(c.name),
		registerEditorExtension: noop,
		register: noop,
	} as unknown as Plugin;
	const deps = { fx: recorder().fx, settings: defaultSettings, onSettingsChange: () => noop } as unknown as CommandDeps;
	registerCommands(plugin, deps);
	return names;
}

describe("palette names follow Obsidian's language", () => {
	afterEach(() => setLanguage("en"));

	it.each(LANGUAGES)("every command registerCommands adds is named from the %s table", (language) => {
		// `{n}` (go to block N) filled as the palette shows it.
		const texts = Object.values(tableFor(language)).flatMap((text) => (text.includes("{n}") ? Array.from({ length: 9 }, (_, i) => text.replace("{n}", String(i + 1))) : [text]));
		const names = paletteNames(language);
		expect(names.length).toBeGreaterThan(20);
		expect(names.filter((n) => !texts.includes(n))).toEqual([]);
	});

	it.each([
		["en", ["Run block", "Go to block 3 of the note", "Reload settings from user.toml"]],
		["es", ["Ejecutar el bloque", "Ir al bloque 3 de la nota", "Volver a leer los ajustes de user.toml"]],
		["pt", ["Executar o bloco", "Ir para o bloco 3 da nota", "Ler de novo as configurações de user.toml"]],
	])("in %s the palette reads %j", (language, expected) => {
		expect(paletteNames(language)).toEqual(expect.arrayContaining(expected));
	});

	it("no addCommand anywhere in the plugin takes a literal name", () => {
		const root = join(__dirname, "../../..");
		const sources = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? sources(join(dir, f)) : f.endsWith(".ts") ? [join(dir, f)] : []));
		const literal = /addCommand\(\{\s*(?:id:\s*[^,]+,\s*)?name:\s*["'`]/;
		const files = [...sources(join(root, "src")), join(root, "main.ts")];
		expect(files.filter((f) => literal.test(readFileSync(f, "utf8"))).map((f) => f.slice(root.length + 1))).toEqual([]);
	});
});
