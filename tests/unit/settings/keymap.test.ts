import { ACTIONS, actsWhileOpen, chordFromKeyEvent, chordOverlap, displayChord, findConflicts, findShadows, formatChord, parseChord, presetChords, presetWidenings, resolveChord, resolveKeymap, toCodeMirrorKey, toObsidianHotkey } from "../../../src/settings/keymap";

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
	it("binds the block actions by default and no global action: every seed global chord is one of Obsidian's", () => {
		const { bindings, sources, problems } = resolveKeymap({});
		expect(problems).toEqual([]);
		expect(ACTIONS.map((a) => a.id)).toEqual(expect.arrayContaining(["block.run", "block.run_all", "block.cancel", "block.copy_curl", "block.explain", "block.force_run", "search.blocks", "env.switch", "env.new_variable", "chat.toggle", "vcs.sync", "block.goto.1", "block.goto.9"]));
		expect(Object.fromEntries([...bindings].map(([a, c]) => [a, formatChord(c)]))).toEqual({
			"block.run": "Mod+Enter",
			"block.run_all": "Mod+Shift+Enter",
			"block.cancel": "Mod+.",
			"block.copy_curl": "Mod+Shift+C",
			"block.explain": "Mod+Shift+E",
			"block.force_run": "Mod+Shift+R",
			// Panel chords act only while the version-control panel has focus.
			"vcs.commit": "Mod+G",
			"vcs.branch": "Mod+B",
		});
		expect(new Set(sources.values())).toEqual(new Set(["default"]));
		expect(ACTIONS.filter((a) => a.scope === "global").every((a) => a.defaultChord === null)).toBe(true);
	});

	it("the Notebook preset adds the seed's global chords, and nothing for go to block N", () => {
		const { bindings, sources } = resolveKeymap({}, "notebook");
		const preset = [...bindings].filter(([a]) => sources.get(a) === "preset").map(([a, c]) => [a, formatChord(c)]);
		expect(Object.fromEntries(preset)).toEqual({ "search.blocks": "Mod+K", "env.switch": "Mod+E", "env.new_variable": "Mod+Shift+V", "chat.toggle": "Mod+B", "vcs.sync": "Mod+Shift+S" });
		expect(formatChord(bindings.get("block.run")!)).toBe("Mod+Enter");
		expect(sources.get("block.run")).toBe("default");
		expect(bindings.has("block.goto.1")).toBe(false);
	});

	it.each([
		["obsidian", "vcs.commit", false],
		["notebook", "vcs.commit", true],
		["notebook", "vcs.branch", false],
		["notebook", "chat.toggle", false],
	] as const)("with the %s preset, %s acts while its panel is open, unfocused too: %s", (preset, id, whileOpen) => {
		expect(actsWhileOpen(id, preset)).toBe(whileOpen);
	});

	it.each([
		["obsidian", {}, []],
		["notebook", {}, [["vcs.commit", "Mod+G"]]],
		["notebook", { "vcs.commit": "Mod+Shift+G" }, [["vcs.commit", "Mod+Shift+G"]]],
		["notebook", { "vcs.commit": "" }, []],
	] as const)("preset %s over %j widens %j to the open panel, with the chord in force", (preset, overrides, widened) => {
		expect(presetWidenings(preset, overrides).map((w) => [w.action.id, formatChord(w.chord)])).toEqual(widened);
	});

	it.each([
		["obsidian", {}, []],
		["notebook", {}, ["search.blocks", "env.switch", "env.new_variable", "chat.toggle", "vcs.sync"]],
		["notebook", { "search.blocks": "Alt+K", "env.switch": "" }, ["env.new_variable", "chat.toggle", "vcs.sync"]],
	] as const)("preset %s over %j binds %j with its own chords (a user.toml entry wins)", (preset, overrides, actions) => {
		expect(presetChords(preset, overrides).map((p) => p.action.id)).toEqual(actions);
	});

	it("applies user.toml overrides over the preset, binds Alt+1, unbinds with \"\", and reports bad entries without crashing", () => {
		const { bindings, sources, problems } = resolveKeymap({ "block.run": "Alt+R", "block.goto.1": "Alt+1", "chat.toggle": "", "block.cancel": "Mod+", "made.up": "Mod+X" }, "notebook");
		expect(formatChord(bindings.get("block.run")!)).toBe("Alt+R");
		expect(sources.get("block.run")).toBe("user");
		expect(formatChord(bindings.get("block.goto.1")!)).toBe("Alt+1");
		expect(bindings.has("chat.toggle")).toBe(false);
		expect(sources.get("chat.toggle")).toBe("user");
		expect(formatChord(bindings.get("block.cancel")!)).toBe("Mod+.");
		expect(sources.get("block.cancel")).toBe("default");
		expect(problems.map((p) => p.action)).toEqual(["block.cancel", "made.up"]);
	});

	it("finds conflicts after resolving Mod per platform", () => {
		const { bindings } = resolveKeymap({ "search.blocks": "Mod+E", "chat.toggle": "Cmd+E" }, "notebook");
		// Off the Mac, Cmd+E is not Mod+E: only the two global Mod+E actions meet.
		expect(findConflicts(bindings, false)).toEqual(new Map([["search.blocks", ["env.switch"]], ["env.switch", ["search.blocks"]]]));
		expect(findConflicts(bindings, true).get("env.switch")?.sort()).toEqual(["chat.toggle", "search.blocks"]);
		expect(findConflicts(bindings, true).get("chat.toggle")?.sort()).toEqual(["env.switch", "search.blocks"]);
	});

	it("with the Notebook preset reports no conflict: Mod+B in the focused panel shadows the global chat.toggle", () => {
		const { bindings } = resolveKeymap({}, "notebook");
		expect(formatChord(bindings.get("vcs.branch")!)).toBe(formatChord(bindings.get("chat.toggle")!));
		for (const isMac of [false, true]) {
			expect(findConflicts(bindings, isMac, "notebook")).toEqual(new Map());
			expect(findShadows(bindings, isMac, "notebook")).toEqual([{ narrow: "vcs.branch", wide: "chat.toggle" }]);
		}
	});

	it.each([
		// Same scope: both live for one keypress.
		["obsidian", "block.run", "block.cancel", { kind: "conflict" }],
		["obsidian", "search.blocks", "chat.toggle", { kind: "conflict" }],
		["obsidian", "vcs.commit", "vcs.branch", { kind: "conflict" }],
		// By default vcs.commit acts only in the focused panel, like vcs.branch.
		["obsidian", "vcs.commit", "chat.toggle", { kind: "shadow", narrow: "vcs.commit", wide: "chat.toggle" }],
		["obsidian", "vcs.commit", "block.run", { kind: "apart" }],
		// The Notebook preset puts vcs.commit on the app scope while its panel is open, focused or not: it meets global chords.
		["notebook", "vcs.commit", "chat.toggle", { kind: "conflict" }],
		["notebook", "vcs.commit", "vcs.branch", { kind: "shadow", narrow: "vcs.branch", wide: "vcs.commit" }],
		["notebook", "vcs.commit", "block.run", { kind: "shadow", narrow: "block.run", wide: "vcs.commit" }],
		// A narrower scope takes the chord where it acts; the wider keeps it everywhere else.
		["obsidian", "block.explain", "search.blocks", { kind: "shadow", narrow: "block.explain", wide: "search.blocks" }],
		["notebook", "chat.toggle", "vcs.branch", { kind: "shadow", narrow: "vcs.branch", wide: "chat.toggle" }],
		// Focus is in a block's editor or in the panel, never both.
		["notebook", "vcs.branch", "block.run", { kind: "apart" }],
	] as const)("with the %s preset, %s and %s on one chord: %j", (preset, a, b, expected) => {
		expect(chordOverlap(a, b, preset)).toEqual(expected);
		// The order of the two does not matter.
		expect(chordOverlap(b, a, preset)).toEqual(expected);
	});

	it("finds a conflict between vcs.commit and a global action on its chord only where the preset widens it", () => {
		const { bindings } = resolveKeymap({ "chat.toggle": "Mod+G" }, "notebook");
		expect(findConflicts(bindings, false, "notebook").get("vcs.commit")).toEqual(["chat.toggle"]);
		expect(findConflicts(bindings, false, "obsidian").has("vcs.commit")).toBe(false);
		expect(findShadows(bindings, false, "obsidian")).toContainEqual({ narrow: "vcs.commit", wide: "chat.toggle" });
	});

	it("reports a shadow, not a conflict, for a block chord on a global action's key", () => {
		const { bindings } = resolveKeymap({ "block.explain": "Mod+K" }, "notebook");
		expect(findConflicts(bindings, false).has("block.explain")).toBe(false);
		expect(findShadows(bindings, false)).toContainEqual({ narrow: "block.explain", wide: "search.blocks" });
	});
});
