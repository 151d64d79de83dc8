import { TFile, type Plugin } from "obsidian";
import { parseConversation, type Conversation } from "../../chat/conversation-note";
import { notify } from "../notify";
import type { PluginChatHost } from "./chat-host";
import { t } from "../strings";
import { CHAT_VIEW_TYPE, ChatView } from "./chat-view";

/**
 * Registers the chat panel: its view and the leaf tracking the panel's context needs. Returns
 * the toggle, which `chat.toggle` performs (its "Toggle chat panel" command comes from ACTIONS,
 * with no default hotkey: a chord only from user.toml or the Notebook preset, docs/shortcuts.md).
 */
export function registerChat(plugin: Plugin, host: PluginChatHost): () => Promise<void> {
	const { workspace } = plugin.app;
	plugin.registerView(CHAT_VIEW_TYPE, (leaf) => new ChatView(leaf, host));
	plugin.registerEvent(workspace.on("active-leaf-change", () => host.trackLeaf()));
	plugin.register(() => host.dispose());
	const views = () => workspace.getLeavesOfType(CHAT_VIEW_TYPE).map((l) => l.view).filter((v): v is ChatView => v instanceof ChatView);
	const openPanel = async (): Promise<ChatView | null> => {
		host.trackLeaf();
		const leaf = workspace.getRightLeaf(false);
		if (!leaf) return null;
		await leaf.setViewState({ type: CHAT_VIEW_TYPE, active: true });
		await workspace.revealLeaf(leaf);
		return leaf.view instanceof ChatView ? leaf.view : null;
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
