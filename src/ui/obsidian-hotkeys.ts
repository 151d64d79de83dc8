import type { App } from "obsidian";
import { formatChord, parseChord, resolveChord, type Chord } from "../settings/keymap";

interface Hotkey {
	modifiers: string[];
	key: string;
}
/** Obsidian keeps its effective hotkeys here; not public API, so every field is optional. */
interface HotkeyManagerLike {
	bakedIds?: string[];
	bakedHotkeys?: Hotkey[];
}

/**
 * Obsidian's own hotkeys (command id + chord), where the app lets us read them. Ours
 * (`runnable-blocks:`) are left out: the keymap engine owns those.
 */
export function obsidianHotkeys(app: App, ownPrefix: string): Array<{ command: string; chord: Chord }> {
	const manager = (app as unknown as { hotkeyManager?: HotkeyManagerLike }).hotkeyManager;
	const ids = manager?.bakedIds ?? [];
	const keys = manager?.bakedHotkeys ?? [];
	const out: Array<{ command: string; chord: Chord }> = [];
	ids.forEach((command, i) => {
		const h = keys[i];
		if (!h || command.startsWith(ownPrefix)) return;
		const parsed = parseChord([...h.modifiers, h.key].join("+"));
		if (parsed.ok) out.push({ command, chord: parsed.chord });
	});
	return out;
}

/** Obsidian commands bound to the same chord as `chord` on this platform. */
export function obsidianClashes(chord: Chord, hotkeys: ReadonlyArray<{ command: string; chord: Chord }>, isMac: boolean): string[] {
	const want = formatChord(resolveChord(chord, isMac)).toLowerCase();
	return hotkeys.filter((h) => formatChord(resolveChord(h.chord, isMac)).toLowerCase() === want).map((h) => h.command);
}
