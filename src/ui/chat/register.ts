import type { Plugin } from "obsidian";
import type { PluginChatHost } from "./chat-host";
import { CHAT_VIEW_TYPE, ChatView } from "./chat-view";

/**
 * Registers the chat panel: its view and the leaf tracking the panel's context needs. Returns
 * the toggle, which `chat.toggle` performs (its "Toggle chat panel" command comes from ACTIONS,
 * with no default hotkey: a chord only from user.toml or the Notebook preset, DESIGN.md section 6).
 */
export function registerChat(plugin: Plugin, host: PluginChatHost): () => Promise<void> {
	const { workspace } = plugin.app;
	plugin.registerView(CHAT_VIEW_TYPE, (leaf) => new ChatView(leaf, host));
	plugin.registerEvent(workspace.on("active-leaf-change", () => host.trackLeaf()));
	plugin.register(() => host.dispose());
	const toggle = async () => {
		const open = workspace.getLeavesOfType(CHAT_VIEW_TYPE);
		if (open.length > 0) {
			for (const leaf of open) leaf.detach();
			return;
		}
		host.trackLeaf();
		const leaf = workspace.getRightLeaf(false);
		if (!leaf) return;
		await leaf.setViewState({ type: CHAT_VIEW_TYPE, active: true });
		await workspace.revealLeaf(leaf);
	};
	return toggle;
}
