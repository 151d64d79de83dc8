/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { Plugin as ObsidianPlugin } from "obsidian";
import { serializeConversation } from "../../../../src/chat/conversation-note";
import { registerChat } from "../../../../src/ui/chat/register";
import type { ChatView } from "../../../../src/ui/chat/chat-view";
import { CHAT_VIEW_TYPE } from "../../../../src/ui/chat/chat-view-type";
import { Editor, installDomHelpers, MarkdownView, notices, Plugin, TFile, WorkspaceLeaf } from "../../../e2e/host/obsidian-shim";
import { chatVault, openAiServerOnDesktop } from "../../../support/chat-vault";
import { eventsOver, type Handler } from "../../../support/fake-events";
import { until } from "../../../support/until";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
// The panel's view is required (and compiled) when it first opens: slow on a busy machine.
jest.setTimeout(30_000);


const openAi = openAiServerOnDesktop();
afterEach(() => document.body.empty());

const saved = (question: string) => serializeConversation({ model: "echo", created: "2026-01-02T03:04:05Z", messages: [{ role: "user", content: question }], extraFrontMatter: [] });

/** The chat registered on a plugin whose workspace has a right sidebar of leaves and Obsidian's events. */
async function registered() {
	const handlers = new Map<string, Handler[]>();
	const leaves: WorkspaceLeaf[] = [];
	const revealed: WorkspaceLeaf[] = [];
	let plugin: Plugin | null = null;
	const workspace = {
		on: eventsOver(handlers).on,
		getLeavesOfType: (type: string) => leaves.filter((l) => l.view?.getViewType() === type),
		getRightLeaf: () => {
			const leaf = new WorkspaceLeaf(vault.app, (plugin as Plugin).views, (gone) => leaves.splice(leaves.indexOf(gone), 1));
			leaves.push(leaf);
			return leaf;
		},
		revealLeaf: (leaf: WorkspaceLeaf) => Promise.resolve(void revealed.push(leaf)),
	};
	const vault = await chatVault(`[chat]\nbase_url = "${openAi().baseUrl}"\n`, { workspace });
	plugin = new Plugin(vault.app, { id: "runnable-blocks" });
	plugin.load();
	const toggle = registerChat(plugin as unknown as ObsidianPlugin, vault.host);
	const emit = (name: string, ...args: unknown[]) => (handlers.get(name) ?? []).forEach((fn) => fn(...args));
	const panels = () => workspace.getLeavesOfType(CHAT_VIEW_TYPE).map((l) => l.view as unknown as ChatView);
	const command = plugin.commands.find((c) => c.id === "resume-chat");
	/** Asks the command about (or runs it on) the note `path` open in an editor holding `text`. */
	const resumeCommand = (checking: boolean, path: string, text: string) => {
		const editor = new Editor(new EditorView({ state: EditorState.create({ doc: text }) }));
		return command?.editorCheckCallback?.(checking, editor, new MarkdownView(new TFile(path), editor));
	};
	return { ...vault, plugin, toggle, emit, handlers, leaves, revealed, panels, command, resumeCommand };
}

describe("registerChat", () => {
	it("registers the panel's view, its command and the events it follows, and opens nothing yet", async () => {
		const r = await registered();
		expect([...r.plugin.views.keys()]).toEqual([CHAT_VIEW_TYPE]);
		expect(r.command?.name).toBe("Resume chat from this note");
		expect([...r.handlers.keys()].sort()).toEqual(["active-leaf-change", "file-open"]);
		expect(r.leaves).toEqual([]);
	});

	it("toggles the panel: open in the right sidebar and revealed, then closed", async () => {
		const r = await registered();
		await r.toggle();
		expect(r.panels()).toHaveLength(1);
		expect(r.revealed).toEqual(r.leaves);
		expect(r.panels()[0].contentEl.querySelector(".rb-chat-input")).not.toBeNull();
		await r.toggle();
		expect(r.panels()).toEqual([]);
		expect(r.leaves).toEqual([]);
	});

	it("remembers the note the user was in when the panel takes the focus (active-leaf-change)", async () => {
		const r = await registered();
		r.open("api.md", "# API", 0);
		r.emit("active-leaf-change");
		r.leave();
		expect(r.host.editor()?.path).toBe("api.md");
	});

	it("offers Resume chat only on a conversation note, and running it opens the panel on that conversation", async () => {
		const r = await registered();
		expect(r.resumeCommand(true, "notes/plain.md", "# Just a note")).toBe(false);
		expect(r.resumeCommand(true, "chats/ask.md", saved("what is 2+2?"))).toBe(true);
		expect(r.panels()).toEqual([]);
		expect(r.resumeCommand(false, "chats/ask.md", saved("what is 2+2?"))).toBe(true);
		await until(() => r.panels()[0]?.conversationPath() === "chats/ask.md");
		expect(r.panels()[0].contentEl.querySelector(".rb-chat-messages")?.textContent).toContain("what is 2+2?");
	});

	it("resumes a conversation note opened while the panel is open, and ignores other notes", async () => {
		const r = await registered();
		const noticed = notices.length;
		r.notes.set("chats/ask.md", { text: saved("first question"), mtime: 1 });
		r.notes.set("notes/plain.md", { text: "# Just a note", mtime: 1 });
		r.emit("file-open", new TFile("chats/ask.md"));
		await r.toggle();
		const [panel] = r.panels();
		expect(panel.conversationPath()).toBeNull();
		r.emit("file-open", new TFile("notes/plain.md"));
		r.emit("file-open", new TFile("chats/ask.md"));
		await until(() => panel.conversationPath() === "chats/ask.md");
		// A note that is no conversation, opened without the command, is no error.
		expect(notices.slice(noticed)).toEqual([]);
	});

	it("disposes of the host when the plugin unloads", async () => {
		const r = await registered();
		const dispose = jest.spyOn(r.host, "dispose");
		r.plugin.unload();
		expect(dispose).toHaveBeenCalledTimes(1);
	});
});
