import { TFile, type Plugin } from "obsidian";
import { parseConversation, type Conversation } from "../../chat/conversation-note";
import { notify } from "../notify";
import type { PluginChatHost } from "./chat-host";
import { t } from "../strings";
import type * as ChatViewModule from "./chat-view";
import type { ChatView } from "./chat-view";
import { CHAT_VIEW_TYPE } from "./chat-view-type";

/**
 * The panel's view, required when the panel first opens: main.js carries it as a text module,
 * compiled then rather than at Obsidian's start (docs/architecture.md, "Text modules").
 */
function chatViewClass(): typeof ChatView {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	return (require("./chat-view") as typeof ChatViewModule).ChatView;
}

/** The leaf's view when it is the chat panel (no instanceof: that would load the view's module). */
function asChatView(view: unknown): ChatView | null {
	return typeof view === "object" && view !== null && (view as { getViewType?: () => string }).getViewType?.() === CHAT_VIEW_TYPE ? (view as ChatView) : null;
}

/**
 * Registers the chat panel: its view and the leaf tracking the panel's context needs. Returns
 * the toggle, which `chat.toggle` performs (its "Toggle chat panel" command comes from ACTIONS,
 * with no default hotkey: a chord only from user.toml or the Notebook preset, docs/shortcuts.md).
 */
export function registerChat(plugin: Plugin, host: PluginChatHost): () => Promise<void> {
	const { workspace } = plugin.app;
	plugin.registerView(CHAT_VIEW_TYPE, (leaf) => new (chatViewClass())(leaf, host));
	plugin.registerEvent(workspace.on("active-leaf-change", () => host.trackLeaf()));
	plugin.register(() => host.dispose());
	const views = () => workspace.getLeavesOfType(CHAT_VIEW_TYPE).flatMap((l) => asChatView(l.view) ?? []);
	const openPanel = async (): Promise<ChatView | null> => {
		host.trackLeaf();
		const leaf = workspace.getRightLeaf(false);
		if (!leaf) return null;
		await leaf.setViewState({ type: CHAT_VIEW_TYPE, active: true });
		await workspace.revealLeaf(leaf);
		return asChatView(leaf.view);
	};
	const toggle = async () => {
		const open = workspace.getLeavesOfType(CHAT_VIEW_TYPE);
		if (open.length > 0) {
			for (const leaf of open) leaf.detach();
			return;
		}
		await openPanel();
	};
	/** Loads a conversation note into the panel, opening the panel when asked (the command). */
	const resume = async (path: string, open: boolean, conversation?: Conversation) => {
		const saved = conversation ? { path, conversation } : await host.readConversation(path);
		if (!saved) return open ? notify(t("chatNotAConversation")) : undefined;
		const targets = views();
		if (targets.length === 0 && open) {
			const view = await openPanel();
			if (view) targets.push(view);
		}
		for (const view of targets) if (view.conversationPath() !== saved.path) view.resume(saved);
	};
	// Opening a conversation note while the panel is open resumes it there (a stream in flight is left alone).
	plugin.registerEvent(
		workspace.on("file-open", (file) => {
			if (file instanceof TFile && file.path.endsWith(".md") && views().some((v) => !v.isRunning())) void resume(file.path, false);
		}),
	);
	plugin.addCommand({
		id: "resume-chat",
		name: t("chatResumeCommand"),
		editorCheckCallback: (checking, editor, ctx) => {
			const path = ctx.file?.path;
			// The editor's text, not the file's: what the user sees, saved or not.
			const conversation = path ? parseConversation(editor.getValue()) : null;
			if (!path || !conversation) return false;
			if (!checking) void resume(path, true, conversation);
			return true;
		},
	});
	return toggle;
}
