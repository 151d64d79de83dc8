import { ACTIONS, chordFromKeyEvent, displayChord, findConflicts, formatChord, parseChord, resolveChord, resolveKeymap, toCodeMirrorKey, toObsidianHotkey } from "../../../src/settings/keymap";

const chord = (s: string) => {
	const r = parseChord(s);
	if (!r.ok) throw new Error(r.message);
	return r.chord;
};

describe("chords", () => {
	it.each([
		["Mod+Enter", "Mod+Enter", "Mod-Enter"],
		["mod+shift+enter", "Mod+Shift+Enter", "Mod-Shift-Enter"],
		["Shift+Mod+k", "Mod+Shift+K", "Mod-Shift-k"],
		["Cmd+B", "Cmd+B", "Meta-b"],
		["Command+Option+Return", "Cmd+Alt+Enter", "Meta-Alt-Enter"],
		["Ctrl+.", "Ctrl+.", "Ctrl-."],
		["Alt+1", "Alt+1", "Alt-1"],
		["F5", "F5", "F5"],
		["Mod+Space", "Mod+Space", "Mod-Space"],
		["Mod++", "Mod++", "Mod-+"],
		["Control+Esc", "Ctrl+Escape", "Ctrl-Escape"],
	])("%s → %s (CodeMirror %s)", (text, formatted, cm) => {
		const c = chord(text);
		expect(formatChord(c)).toBe(formatted);
		expect(toCodeMirrorKey(c)).toBe(cm);
	});

	it.each([
		["Mod+", /no key after/],
		["", /empty/],
		["Hyper+K", /"Hyper" is not a modifier/],
		["Mod+Mod+K", /repeats Mod/],
		["Mod+Banana", /"Banana" is not a key name/],
		["Ctrl+Shift", /not a key name|only modifiers/],
	])("rejects %j", (text, message) => {
		const r = parseChord(text);
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.message).toMatch(message);
	});

	it("makes Mod concrete per platform and displays it", () => {
		expect(formatChord(resolveChord(chord("Mod+Shift+C"), true))).toBe("Cmd+Shift+C");
		expect(formatChord(resolveChord(chord("Mod+Shift+C"), false))).toBe("Ctrl+Shift+C");
		expect(displayChord(chord("Mod+Enter"), true)).toBe("⌘↩");
		expect(displayChord(chord("Mod+Enter"), false)).toBe("Ctrl+Enter");
		expect(toObsidianHotkey(chord("Mod+Space"))).toEqual({ modifiers: ["Mod"], key: " " });
	});

	it("captures a chord from a key event", () => {
		expect(chordFromKeyEvent({ key: "r", ctrlKey: true, metaKey: false, altKey: false, shiftKey: true }, false)).toEqual({ modifiers: ["Mod", "Shift"], key: "R" });
		expect(chordFromKeyEvent({ key: "Enter", ctrlKey: false, metaKey: true, altKey: true, shiftKey: false }, true)).toEqual({ modifiers: ["Mod", "Alt"], key: "Enter" });
		expect(chordFromKeyEvent({ key: "Shift", ctrlKey: false, metaKey: false, altKey: false, shiftKey: true }, false)).toBeNull();
	});
});

describe("keymap", () => {
	it("has every action of the design with its default; goto actions unbound", () => {
		const { bindings, problems } = resolveKeymap({});
		expect(problems).toEqual([]);
		expect(ACTIONS.map((a) => a.id)).toEqual(expect.arrayContaining(["block.run", "block.run_all", "block.cancel", "block.copy_curl", "block.explain", "block.force_run", "search.blocks", "env.switch", "env.new_variable", "chat.toggle", "block.goto.1", "block.goto.9"]));
		expect(formatChord(bindings.get("block.run")!)).toBe("Mod+Enter");
		expect(formatChord(bindings.get("chat.toggle")!)).toBe("Mod+B");
		expect(bindings.has("block.goto.1")).toBe(false);
	});

	it("applies user.toml overrides, binds Alt+1, unbinds with \"\", and reports bad entries without crashing", () => {
		const { bindings, problems } = resolveKeymap({ "block.run": "Alt+R", "block.goto.1": "Alt+1", "chat.toggle": "", "block.cancel": "Mod+", "made.up": "Mod+X" });
		expect(formatChord(bindings.get("block.run")!)).toBe("Alt+R");
		expect(formatChord(bindings.get("block.goto.1")!)).toBe("Alt+1");
		expect(bindings.has("chat.toggle")).toBe(false);
		expect(formatChord(bindings.get("block.cancel")!)).toBe("Mod+.");
		expect(problems.map((p) => p.action)).toEqual(["block.cancel", "made.up"]);
	});

	it("finds conflicts after resolving Mod per platform", () => {
		const { bindings } = resolveKeymap({ "block.explain": "Mod+K", "chat.toggle": "Cmd+E" });
		expect(findConflicts(bindings, false)).toEqual([["block.explain", "search.blocks"]]);
		expect(findConflicts(bindings, true).map((c) => c.sort())).toEqual([["block.explain", "search.blocks"], ["chat.toggle", "env.switch"]]);
	});
});
