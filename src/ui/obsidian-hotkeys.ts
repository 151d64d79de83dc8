import type { App } from "obsidian";
import { formatChord, parseChord, resolveChord, type Chord } from "../settings/keymap";
import { OBSIDIAN_DEFAULT_HOTKEYS, OBSIDIAN_EDITOR_KEYS } from "./obsidian-default-hotkeys";

/** One of Obsidian's hotkeys: command id (`""` for an editor key that is no command), its name, its chord. */
export interface ObsidianHotkey {
	command: string;
	name: string;
	chord: Chord;
}

/**
 * Obsidian's hotkeys as far as we can know them: `app` when read from the app (the user's own
 * changes included), `defaults` when the app does not expose them and Obsidian's documented
 * defaults stand in (docs/private-apis.md).
 */
export interface ObsidianHotkeys {
	source: "app" | "defaults";
	hotkeys: ObsidianHotkey[];
}

/** A hotkey as Obsidian stores it: modifiers as a list (`["Mod", "Shift"]`) or baked into "Ctrl,Shift". */
interface StoredHotkey {
	modifiers?: unknown;
	key?: unknown;
}
/** `app.hotkeyManager` is not public API, so every field is optional and checked. */
interface HotkeyManagerLike {
	defaultKeys?: Record<string, StoredHotkey[] | undefined>;
	customKeys?: Record<string, StoredHotkey[] | undefined>;
	bakedIds?: unknown[];
	bakedHotkeys?: StoredHotkey[];
	bake?: unknown;
}
/** `app.commands` is not public API either: only the command's name is read. */
interface CommandsLike {
	findCommand?(id: string): { name?: unknown } | undefined;
	commands?: Record<string, { name?: unknown } | undefined>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The probe: Obsidian's hotkey manager, or null where the app has none we can read. */
export function hotkeyManagerOf(app: App): HotkeyManagerLike | null {
	const manager = (app as unknown as { hotkeyManager?: unknown }).hotkeyManager;
	return isRecord(manager) ? manager : null;
}

function chordOf(h: StoredHotkey | undefined): Chord | null {
	if (!h || typeof h.key !== "string" || h.key === "") return null;
	const modifiers = Array.isArray(h.modifiers) ? h.modifiers : typeof h.modifiers === "string" ? h.modifiers.split(",") : [];
	if (!modifiers.every((m): m is string => typeof m === "string")) return null;
	const key = h.key === " " ? "Space" : h.key;
	const parsed = parseChord([...modifiers.filter((m) => m !== ""), key].join("+"));
	return parsed.ok ? parsed.chord : null;
}

/**
 * Command id → chord, for every hotkey in force. The baked list is what Obsidian matches keys
 * against (defaults, the user's changes, other plugins'), so it comes first, baked now if the
 * manager has not yet; else the defaults with the user's custom keys over them (newer versions
 * keep those out of reach, so this path can miss a change). Null: nothing readable.
 */
function readManager(manager: HotkeyManagerLike): Array<{ command: string; chord: Chord }> | null {
	const out: Array<{ command: string; chord: Chord }> = [];
	if (typeof manager.bake === "function") {
		try {
			(manager.bake as () => void).call(manager);
		} catch {
			// A bake that fails leaves whatever lists there are; they are checked below.
		}
	}
	if (Array.isArray(manager.bakedIds) && Array.isArray(manager.bakedHotkeys) && manager.bakedIds.length > 0) {
		manager.bakedIds.forEach((command, i) => {
			const chord = chordOf(manager.bakedHotkeys?.[i]);
			if (typeof command === "string" && chord) out.push({ command, chord });
		});
		return out;
	}
	if (isRecord(manager.defaultKeys)) {
		const custom = isRecord(manager.customKeys) ? manager.customKeys : {};
		for (const [command, keys] of Object.entries({ ...manager.defaultKeys, ...custom })) {
			for (const h of Array.isArray(keys) ? keys : []) {
				const chord = chordOf(h);
				if (chord) out.push({ command, chord });
			}
		}
		return out;
	}
	return null;
}

const DEFAULT_NAMES = new Map(OBSIDIAN_DEFAULT_HOTKEYS.map((h) => [h.command, h.name]));

/** A command's name from the app where it tells, else from the defaults table, else its id. */
export function commandName(app: App, id: string): string {
	const commands = (app as unknown as { commands?: CommandsLike }).commands;
	const found = typeof commands?.findCommand === "function" ? commands.findCommand(id) : commands?.commands?.[id];
	return typeof found?.name === "string" ? found.name : (DEFAULT_NAMES.get(id) ?? id);
}

function fromTable(table: ReadonlyArray<{ command: string; name: string; chord: string }>): ObsidianHotkey[] {
	return table.flatMap((h) => {
		const parsed = parseChord(h.chord);
		return parsed.ok ? [{ command: h.command, name: h.name, chord: parsed.chord }] : [];
	});
}

const same = (a: Chord, b: Chord, isMac: boolean) => formatChord(resolveChord(a, isMac)).toLowerCase() === formatChord(resolveChord(b, isMac)).toLowerCase();

/**
 * Obsidian's own hotkeys (not this plugin's: command ids starting with `ownPrefix` are left
 * out), read from the app where it lets us, else its documented defaults; plus the keys its
 * editor handles outside the hotkey list (Mod+Shift+V).
 */
export function obsidianHotkeys(app: App, ownPrefix: string, isMac = false): ObsidianHotkeys {
	const manager = hotkeyManagerOf(app);
	const read = manager ? readManager(manager) : null;
	const hotkeys: ObsidianHotkey[] = read
		? read.filter((h) => !h.command.startsWith(ownPrefix)).map((h) => ({ ...h, name: commandName(app, h.command) }))
		: fromTable(OBSIDIAN_DEFAULT_HOTKEYS);
	for (const key of fromTable(OBSIDIAN_EDITOR_KEYS)) if (!hotkeys.some((h) => same(h.chord, key.chord, isMac))) hotkeys.push(key);
	return { source: read ? "app" : "defaults", hotkeys };
}

/** Obsidian's hotkeys on the same key as `chord` on this platform. */
export function obsidianClashes(chord: Chord, hotkeys: readonly ObsidianHotkey[], isMac: boolean): ObsidianHotkey[] {
	return hotkeys.filter((h) => same(h.chord, chord, isMac));
}
