/**
 * Obsidian's own default hotkeys (desktop, English command names), for when the app does not
 * let a plugin read its hotkey list (`app.hotkeyManager` is not public API; docs/private-apis.md).
 * Taken from Obsidian 1.x's command list; the user's own changes in Settings → Hotkeys are
 * invisible here, which the Keymap page says. Platform-specific ones are left out, except
 * tab cycling, which is Ctrl on every platform.
 */
export const OBSIDIAN_DEFAULT_HOTKEYS: ReadonlyArray<{ command: string; name: string; chord: string }> = [
	{ command: "command-palette:open", name: "Open command palette", chord: "Mod+P" },
	{ command: "switcher:open", name: "Open quick switcher", chord: "Mod+O" },
	{ command: "global-search:open", name: "Search in all files", chord: "Mod+Shift+F" },
	{ command: "graph:open", name: "Open graph view", chord: "Mod+G" },
	{ command: "app:open-settings", name: "Open settings", chord: "Mod+," },
	{ command: "app:open-help", name: "Open help", chord: "F1" },
	{ command: "app:go-back", name: "Navigate back", chord: "Mod+Alt+ArrowLeft" },
	{ command: "app:go-forward", name: "Navigate forward", chord: "Mod+Alt+ArrowRight" },
	{ command: "file-explorer:new-file", name: "Create new note", chord: "Mod+N" },
	{ command: "file-explorer:new-file-in-new-pane", name: "Create note to the right", chord: "Mod+Shift+N" },
	{ command: "workspace:new-tab", name: "New tab", chord: "Mod+T" },
	{ command: "workspace:close", name: "Close current tab", chord: "Mod+W" },
	{ command: "workspace:close-window", name: "Close window", chord: "Mod+Shift+W" },
	{ command: "workspace:undo-close-pane", name: "Undo close tab", chord: "Mod+Shift+T" },
	{ command: "workspace:next-tab", name: "Go to next tab", chord: "Ctrl+Tab" },
	{ command: "workspace:previous-tab", name: "Go to previous tab", chord: "Ctrl+Shift+Tab" },
	...Array.from({ length: 8 }, (_, i) => ({ command: `workspace:goto-tab-${i + 1}`, name: `Go to tab #${i + 1}`, chord: `Mod+${i + 1}` })),
	{ command: "workspace:goto-last-tab", name: "Go to last tab", chord: "Mod+9" },
	{ command: "workspace:edit-file-title", name: "Rename file", chord: "F2" },
	{ command: "markdown:toggle-preview", name: "Toggle reading view", chord: "Mod+E" },
	{ command: "markdown:add-metadata-property", name: "Add file property", chord: "Mod+;" },
	{ command: "editor:save-file", name: "Save current file", chord: "Mod+S" },
	{ command: "editor:open-search", name: "Search current file", chord: "Mod+F" },
	{ command: "editor:insert-link", name: "Insert Markdown link", chord: "Mod+K" },
	{ command: "editor:toggle-bold", name: "Toggle bold", chord: "Mod+B" },
	{ command: "editor:toggle-italics", name: "Toggle italics", chord: "Mod+I" },
	{ command: "editor:toggle-comments", name: "Toggle comment", chord: "Mod+/" },
	{ command: "editor:toggle-checklist-status", name: "Toggle checkbox status", chord: "Mod+L" },
	{ command: "editor:delete-paragraph", name: "Delete paragraph", chord: "Mod+D" },
	{ command: "editor:follow-link", name: "Follow link under cursor", chord: "Alt+Enter" },
	{ command: "editor:open-link-in-new-leaf", name: "Open link under cursor in new tab", chord: "Mod+Enter" },
];

/**
 * Keys Obsidian's editor handles itself, outside its hotkey list: counted as Obsidian's unless
 * the list has the chord already. No command id (`""`): the name is all there is to show.
 */
export const OBSIDIAN_EDITOR_KEYS: ReadonlyArray<{ command: string; name: string; chord: string }> = [{ command: "", name: "Paste as plain text", chord: "Mod+Shift+V" }];
