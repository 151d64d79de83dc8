/**
 * The keymap model (docs/shortcuts.md): action ids and their defaults, chords as written in
 * user.toml (`Mod+Shift+Enter`), their CodeMirror and Obsidian forms, and conflicts.
 */

/**
 * Where an action's chord acts: `block` inside a runnable block (an editor keymap that falls
 * through elsewhere), `global` anywhere in the app, `panel` while a panel of ours has focus.
 */
export type ActionScope = "block" | "global" | "panel";

export interface ActionSpec {
	readonly id: string;
	readonly scope: ActionScope;
	/** Chord in force with no preset and no user.toml entry, or null: unbound. */
	readonly defaultChord: string | null;
	/** Chord the Notebook keymap preset gives it (the design's global chords, docs/shortcuts.md), or null. */
	readonly notebookChord: string | null;
	/** Key of its name in the UI strings (Keymap page), e.g. "actRun"; `{n}` is filled for go to block N. */
	readonly name: string;
	/**
	 * Its command palette entry: a stable id (users bind hotkeys to it) and the palette title,
	 * which docs cite; null for an action without one.
	 */
	readonly command: { readonly id: string; readonly title: string } | null;
	/** Named by the design but not built yet: listed and bindable, never registered. */
	readonly reserved?: true;
	/**
	 * A panel action the Notebook preset widens from "its panel has focus" to "its panel is open,
	 * focused or not" (on the app's scope), so it competes with global chords then.
	 */
	readonly notebookWhileOpen?: true;
}

/** Where an action's chord comes from, for the Keymap page. */
export type ChordSource = "default" | "preset" | "user";

/** `[general] keymap_preset`: "obsidian" takes no chord from Obsidian; "notebook" applies the design's global chords. */
export type KeymapPreset = "obsidian" | "notebook";
export const KEYMAP_PRESETS: readonly KeymapPreset[] = ["obsidian", "notebook"];

/** `block.goto.N`: moves the cursor to the N-th block of the note. */
const goto = <N extends 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9>(n: N) =>
	({ id: `block.goto.${n}`, scope: "global", defaultChord: null, notebookChord: null, name: "actGoto", command: { id: `go-to-block-${n}`, title: `Go to block ${n} of the note` } }) as const;

/**
 * Every action (docs/shortcuts.md). Block actions keep their chords by default: they act only
 * inside a runnable block and fall through to Obsidian elsewhere. Global actions have no
 * default, because each of the design's global chords is one of Obsidian's own hotkeys (Mod+K
 * insert link, Mod+E toggle reading view, Mod+Shift+V paste as plain text, Mod+B bold): the
 * Notebook preset or user.toml binds them. `block.goto.N` stay unbound even there: Alt+1..9
 * collide with tiling window managers (and type characters on macOS).
 */
export const ACTIONS = [
	{ id: "block.run", scope: "block", defaultChord: "Mod+Enter", notebookChord: null, name: "actRun", command: { id: "run-block", title: "Run block" } },
	{ id: "block.run_all", scope: "block", defaultChord: "Mod+Shift+Enter", notebookChord: null, name: "actRunAll", command: { id: "run-all-blocks", title: "Run all blocks in the note" } },
	{ id: "block.cancel", scope: "block", defaultChord: "Mod+.", notebookChord: null, name: "actCancel", command: { id: "cancel-block", title: "Cancel running block" } },
	{ id: "block.copy_curl", scope: "block", defaultChord: "Mod+Shift+C", notebookChord: null, name: "actCopyCurl", command: { id: "copy-block-as-curl", title: "Copy block as curl" } },
	// Mod+Shift+E is no Obsidian default (src/ui/obsidian-default-hotkeys.ts); on any other block it falls through.
	{ id: "block.explain", scope: "block", defaultChord: "Mod+Shift+E", notebookChord: null, name: "actExplain", command: { id: "explain-block", title: "Explain query plan of the block" } },
	{ id: "block.force_run", scope: "block", defaultChord: "Mod+Shift+R", notebookChord: null, name: "actForceRun", command: { id: "force-run-block", title: "Force re-run block (skip cache)" } },
	// issue 28: no default chord; the user binds one in user.toml or the Keymap page.
	{ id: "block.pin", scope: "block", defaultChord: null, notebookChord: null, name: "actPin", command: { id: "pin-response", title: "Pin response" } },
	{ id: "block.compare_pin", scope: "block", defaultChord: null, notebookChord: null, name: "actComparePin", command: { id: "compare-with-pinned", title: "Compare with pinned" } },
	{ id: "search.blocks", scope: "global", defaultChord: null, notebookChord: "Mod+K", name: "actSearch", command: { id: "search-blocks", title: "Search runnable blocks and variables" } },
	{ id: "env.switch", scope: "global", defaultChord: null, notebookChord: "Mod+E", name: "actEnvSwitch", command: { id: "switch-environment", title: "Switch environment" } },
	{ id: "env.new_variable", scope: "global", defaultChord: null, notebookChord: "Mod+Shift+V", name: "actNewVariable", command: { id: "new-variable", title: "New variable in the active environment" } },
	// Obsidian's Mod+B is Bold: bound only by the Notebook preset or user.toml.
	{ id: "chat.toggle", scope: "global", defaultChord: null, notebookChord: "Mod+B", name: "actChat", command: { id: "toggle-chat", title: "Toggle chat panel" } },
	{ id: "vcs.sync", scope: "global", defaultChord: null, notebookChord: "Mod+Shift+S", name: "actVcsSync", command: { id: "sync-vault-repository", title: "Sync the vault repository" } },
	{ id: "auth.clear", scope: "global", defaultChord: null, notebookChord: null, name: "actAuthClear", command: { id: "clear-auth-tokens", title: "Clear auth tokens" } },
	// The version-control panel's chords, on the panel's own scope (src/ui/vcs): Obsidian keeps Mod+G
	// (graph view) and Mod+B (bold) wherever the panel does not have focus. The Notebook preset
	// widens Mod+G to "panel open", the design's condition, after listing the graph view it shadows.
	// Their palette commands are the panel's own (src/ui/vcs/register.ts), which need a repository.
	{ id: "vcs.commit", scope: "panel", defaultChord: "Mod+G", notebookChord: null, name: "actVcsCommit", command: null, notebookWhileOpen: true },
	{ id: "vcs.branch", scope: "panel", defaultChord: "Mod+B", notebookChord: null, name: "actVcsBranch", command: null },
	...[goto(1), goto(2), goto(3), goto(4), goto(5), goto(6), goto(7), goto(8), goto(9)],
] as const satisfies readonly ActionSpec[];

/** Every action id, derived from `ACTIONS`: a new action is one entry there. */
export type ActionId = (typeof ACTIONS)[number]["id"];
/** The ids of one scope's actions. */
export type ActionOf<S extends ActionScope> = Extract<(typeof ACTIONS)[number], { scope: S }>["id"];
/** The string keys naming actions (the UI checks each is one of its strings). */
export type ActionNameKey = (typeof ACTIONS)[number]["name"];

/** An action as code reads it: every field of the spec, with its id and name key typed. */
export type Action = Omit<ActionSpec, "id" | "name"> & { readonly id: ActionId; readonly name: ActionNameKey };
/** `ACTIONS` seen as `Action`s (optional fields such as `reserved` readable on every entry). */
export const ACTION_SPECS: readonly Action[] = ACTIONS;

/** True for a string that names an action (user.toml keys are checked with it). */
export function isActionId(id: string): id is ActionId {
	return ACTIONS.some((a) => a.id === id);
}

/** The spec of an action id. */
export function actionSpec(id: ActionId): Action {
	return ACTION_SPECS.find((a) => a.id === id) as Action;
}

export type Modifier = "Mod" | "Ctrl" | "Meta" | "Alt" | "Shift";

/** A parsed chord. `Mod` stays abstract until a platform is known. */
export interface Chord {
	modifiers: Modifier[];
	/** Canonical key name: "Enter", "K", ".", "F5", "ArrowUp"… */
	key: string;
}

const MODIFIER_NAMES: Record<string, Modifier> = {
	mod: "Mod",
	cmd: "Meta",
	command: "Meta",
	meta: "Meta",
	super: "Meta",
	ctrl: "Ctrl",
	control: "Ctrl",
	alt: "Alt",
	option: "Alt",
	opt: "Alt",
	shift: "Shift",
};

const NAMED_KEYS: Record<string, string> = {
	enter: "Enter",
	return: "Enter",
	escape: "Escape",
	esc: "Escape",
	tab: "Tab",
	space: "Space",
	backspace: "Backspace",
	delete: "Delete",
	del: "Delete",
	up: "ArrowUp",
	down: "ArrowDown",
	left: "ArrowLeft",
	right: "ArrowRight",
	arrowup: "ArrowUp",
	arrowdown: "ArrowDown",
	arrowleft: "ArrowLeft",
	arrowright: "ArrowRight",
	home: "Home",
	end: "End",
	pageup: "PageUp",
	pagedown: "PageDown",
	insert: "Insert",
};

const PUNCTUATION = new Set([".", ",", "/", "\\", "[", "]", ";", "'", "`", "-", "=", "+"]);
const MOD_ORDER: Modifier[] = ["Mod", "Ctrl", "Meta", "Alt", "Shift"];

export type ChordResult = { ok: true; chord: Chord } | { ok: false; message: string };

function keyName(raw: string): string | null {
	const lower = raw.toLowerCase();
	if (lower in NAMED_KEYS) return NAMED_KEYS[lower];
	if (/^[a-z0-9]$/i.test(raw)) return raw.toUpperCase();
	if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(raw)) return raw.toUpperCase();
	if (PUNCTUATION.has(raw)) return raw;
	return null;
}

/** Parses `Mod+Shift+Enter` (case-insensitive names; `+` as a key is written last, e.g. `Mod++`). */
export function parseChord(text: string): ChordResult {
	const trimmed = text.trim();
	if (trimmed === "") return { ok: false, message: "empty binding" };
	const parts = trimmed.endsWith("++") ? [...trimmed.slice(0, -2).split("+"), "+"] : trimmed.split("+");
	const keyPart = parts.pop() ?? "";
	if (keyPart === "") return { ok: false, message: `"${text}" has no key after the last "+"` };
	const modifiers: Modifier[] = [];
	for (const p of parts) {
		const m = MODIFIER_NAMES[p.trim().toLowerCase()];
		if (!m) return { ok: false, message: `"${p}" is not a modifier (use Mod, Cmd, Ctrl, Alt or Shift)` };
		if (modifiers.includes(m)) return { ok: false, message: `"${text}" repeats ${m}` };
		modifiers.push(m);
	}
	const key = keyName(keyPart.trim());
	if (!key) return { ok: false, message: `"${keyPart}" is not a key name` };
	if (MODIFIER_NAMES[keyPart.trim().toLowerCase()]) return { ok: false, message: `"${text}" has no key, only modifiers` };
	modifiers.sort((a, b) => MOD_ORDER.indexOf(a) - MOD_ORDER.indexOf(b));
	return { ok: true, chord: { modifiers, key } };
}

/** The chord with `Mod` made concrete: Cmd (Meta) on macOS, Ctrl elsewhere. */
export function resolveChord(chord: Chord, isMac: boolean): Chord {
	const modifiers = [...new Set(chord.modifiers.map((m) => (m === "Mod" ? (isMac ? "Meta" : "Ctrl") : m)))] as Modifier[];
	modifiers.sort((a, b) => MOD_ORDER.indexOf(a) - MOD_ORDER.indexOf(b));
	return { modifiers, key: chord.key };
}

/** As user.toml writes it. */
export function formatChord(chord: Chord): string {
	return [...chord.modifiers.map((m) => (m === "Meta" ? "Cmd" : m)), chord.key].join("+");
}

/** As the UI shows it on a platform (⌘⇧↩ on macOS, Ctrl+Shift+Enter elsewhere). */
export function displayChord(chord: Chord, isMac: boolean): string {
	const c = resolveChord(chord, isMac);
	if (!isMac) return formatChord(c);
	const symbols: Record<string, string> = { Meta: "⌘", Ctrl: "⌃", Alt: "⌥", Shift: "⇧" };
	const keys: Record<string, string> = { Enter: "↩", Escape: "⎋", Backspace: "⌫", Tab: "⇥", ArrowUp: "↑", ArrowDown: "↓", ArrowLeft: "←", ArrowRight: "→" };
	return c.modifiers.map((m) => symbols[m]).join("") + (keys[c.key] ?? c.key);
}

/** CodeMirror 6 key syntax (`Mod-Shift-Enter`); letters lower-case with Shift as a modifier. */
export function toCodeMirrorKey(chord: Chord): string {
	const names: Record<Modifier, string> = { Mod: "Mod", Ctrl: "Ctrl", Meta: "Meta", Alt: "Alt", Shift: "Shift" };
	const key = chord.key === "Space" ? "Space" : /^[A-Z]$/.test(chord.key) ? chord.key.toLowerCase() : chord.key;
	return [...chord.modifiers.map((m) => names[m]), key].join("-");
}

/** Obsidian's hotkey shape ({ modifiers, key }), for `app.scope` registrations. */
export function toObsidianHotkey(chord: Chord): { modifiers: Modifier[]; key: string } {
	return { modifiers: [...chord.modifiers], key: chord.key === "Space" ? " " : chord.key };
}

/** The chord a key event makes (for "click to capture" on the settings page); null for a lone modifier. */
export function chordFromKeyEvent(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }, isMac: boolean): Chord | null {
	if (["Control", "Meta", "Alt", "Shift"].includes(e.key)) return null;
	const modifiers: Modifier[] = [];
	if (isMac ? e.metaKey : e.ctrlKey) modifiers.push("Mod");
	if (isMac && e.ctrlKey) modifiers.push("Ctrl");
	if (!isMac && e.metaKey) modifiers.push("Meta");
	if (e.altKey) modifiers.push("Alt");
	if (e.shiftKey) modifiers.push("Shift");
	const key = keyName(e.key === " " ? "space" : e.key);
	return key ? { modifiers, key } : null;
}

export interface KeymapProblem {
	action: string;
	message: string;
}

export interface ResolvedKeymap {
	/** Action id → chord (absent: unbound). */
	bindings: Map<ActionId, Chord>;
	/** Action id → where its chord (or its unbinding) comes from; every action has one. */
	sources: Map<ActionId, ChordSource>;
	problems: KeymapProblem[];
}

/**
 * The keymap in force: the defaults, then the preset's chords, then user.toml's `[keymap]`.
 * Unknown actions and invalid chords are reported and ignored (what was there stays);
 * `""` unbinds an action.
 */
export function resolveKeymap(overrides: Readonly<Record<string, string>>, preset: KeymapPreset = "obsidian"): ResolvedKeymap {
	const bindings = new Map<ActionId, Chord>();
	const sources = new Map<ActionId, ChordSource>();
	const problems: KeymapProblem[] = [];
	for (const a of ACTION_SPECS) {
		sources.set(a.id, "default");
		const chord = (preset === "notebook" ? a.notebookChord : null) ?? a.defaultChord;
		const parsed = chord ? parseChord(chord) : null;
		if (!parsed?.ok) continue;
		bindings.set(a.id, parsed.chord);
		if (chord !== a.defaultChord) sources.set(a.id, "preset");
	}
	for (const [written, text] of Object.entries(overrides)) {
		const action = isActionId(written) ? written : null;
		if (action === null) {
			problems.push({ action: written, message: `unknown action "${written}"` });
			continue;
		}
		if (text.trim() === "") {
			bindings.delete(action);
			sources.set(action, "user");
			continue;
		}
		const parsed = parseChord(text);
		if (!parsed.ok) {
			problems.push({ action, message: parsed.message });
			continue;
		}
		bindings.set(action, parsed.chord);
		sources.set(action, "user");
	}
	return { bindings, sources, problems };
}

/**
 * The actions a preset would bind with its own chords given the user's `[keymap]` (an entry
 * there wins over the preset), each with its chord: what applying the preset adds.
 */
export function presetChords(preset: KeymapPreset, overrides: Readonly<Record<string, string>>): Array<{ action: Action; chord: Chord }> {
	const { bindings, sources } = resolveKeymap(overrides, preset);
	return ACTION_SPECS.flatMap((action) => {
		const chord = bindings.get(action.id);
		return chord && sources.get(action.id) === "preset" ? [{ action, chord }] : [];
	});
}

/**
 * The bound actions a preset widens to act while their panel is open, focused or not, each with
 * the chord in force (a user.toml entry included): what applying the preset changes besides chords.
 */
export function presetWidenings(preset: KeymapPreset, overrides: Readonly<Record<string, string>>): Array<{ action: Action; chord: Chord }> {
	const { bindings } = resolveKeymap(overrides, preset);
	return ACTION_SPECS.flatMap((action) => {
		const chord = bindings.get(action.id);
		return chord && actsWhileOpen(action.id, preset) ? [{ action, chord }] : [];
	});
}

/** Whether a panel action acts while its panel is open, focused or not (app scope), under a preset. */
export function actsWhileOpen(id: ActionId, preset: KeymapPreset): boolean {
	return preset === "notebook" && actionSpec(id).notebookWhileOpen === true;
}

/** Where an action's chord is live, narrowest first. */
type Reach = "block" | "panel-focus" | "panel-open" | "global";

function reachOf(id: string, preset: KeymapPreset): Reach {
	const spec = isActionId(id) ? actionSpec(id) : null;
	if (!spec || spec.scope === "global") return "global";
	if (spec.scope === "block") return "block";
	return actsWhileOpen(spec.id, preset) ? "panel-open" : "panel-focus";
}

/** Which of two reaches wins a keypress both could take: the one checked first where it is live. */
const NARROWER: Partial<Record<`${Reach}/${Reach}`, Reach>> = {
	"block/global": "block",
	"block/panel-open": "block",
	"panel-focus/global": "panel-focus",
	"panel-focus/panel-open": "panel-focus",
};

/**
 * How two actions bound to one chord meet under a preset (docs/shortcuts.md, "Conflicts"):
 * - `conflict`: both are live for the same keypress and which runs is an accident of registration
 *   (the same scope, or a global action and a panel action live while its panel is open);
 * - `shadow`: the narrower one (inside a block, in the focused panel) takes the chord where it
 *   acts and the other keeps it everywhere else, by design;
 * - `apart`: never live together (inside a block's editor and in a focused panel).
 */
export function chordOverlap<A extends string>(a: A, b: A, preset: KeymapPreset = "obsidian"): { kind: "conflict" } | { kind: "apart" } | { kind: "shadow"; narrow: A; wide: A } {
	const [ra, rb] = [reachOf(a, preset), reachOf(b, preset)];
	if (ra === rb || (ra === "global" && rb === "panel-open") || (rb === "global" && ra === "panel-open")) return { kind: "conflict" };
	const narrow = NARROWER[`${ra}/${rb}`] ?? NARROWER[`${rb}/${ra}`];
	if (!narrow) return { kind: "apart" };
	return narrow === ra ? { kind: "shadow", narrow: a, wide: b } : { kind: "shadow", narrow: b, wide: a };
}

/** Same-chord pairs on a platform, by how they meet (chordOverlap). */
function sameChordPairs<A extends string>(bindings: ReadonlyMap<A, Chord>, isMac: boolean): Array<[A, A]> {
	const byChord = new Map<string, A[]>();
	for (const [action, chord] of bindings) {
		const key = formatChord(resolveChord(chord, isMac));
		byChord.set(key, [...(byChord.get(key) ?? []), action]);
	}
	const pairs: Array<[A, A]> = [];
	for (const actions of byChord.values()) for (let i = 0; i < actions.length; i++) for (let j = i + 1; j < actions.length; j++) pairs.push([actions[i], actions[j]]);
	return pairs;
}

/**
 * Actions that conflict on a platform under a preset: for each action, the others bound to its chord
 * that are live for the same keypress. Chords shared across scopes that shadow or never meet are not
 * conflicts.
 */
export function findConflicts<A extends string>(bindings: ReadonlyMap<A, Chord>, isMac: boolean, preset: KeymapPreset = "obsidian"): Map<A, A[]> {
	const out = new Map<A, A[]>();
	for (const [a, b] of sameChordPairs(bindings, isMac)) {
		if (chordOverlap(a, b, preset).kind !== "conflict") continue;
		out.set(a, [...(out.get(a) ?? []), b]);
		out.set(b, [...(out.get(b) ?? []), a]);
	}
	return out;
}

/** Same-chord pairs where a narrower scope takes the chord from a wider one where it acts. */
export function findShadows<A extends string>(bindings: ReadonlyMap<A, Chord>, isMac: boolean, preset: KeymapPreset = "obsidian"): Array<{ narrow: A; wide: A }> {
	return sameChordPairs(bindings, isMac).flatMap(([a, b]) => {
		const o = chordOverlap(a, b, preset);
		return o.kind === "shadow" ? [{ narrow: o.narrow, wide: o.wide }] : [];
	});
}
