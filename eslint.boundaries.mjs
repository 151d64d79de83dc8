// The core/adapter boundary (docs/architecture.md), as a lint rule: the core — the block language,
// the engine, settings, the CLI — never imports `obsidian`, the UI adapters or the editor's view. eslint.config.mjs
// applies it; tests/unit/build/boundaries.test.ts proves it catches a violation.
export const CORE_FILES = ["src/blocks/**/*.ts", "src/runner/**/*.ts", "src/settings/**/*.ts", "src/cli/**/*.ts", "src/chat/**/*.ts", "src/vcs/**/*.ts"];

export const boundaryRule = [
	"error",
	{
		paths: [
			{ name: "obsidian", message: "The core never imports obsidian: declare a port here and implement it in src/ui (docs/architecture.md)." },
			// Both would carry the editor's view into the CLI bundle (issue 19: dist/cli.js was 2.8 MB).
			{ name: "@codemirror/view", message: "The core never imports @codemirror/view: the editor's view belongs to src/ui, and the CLI bundle would carry it." },
			{ name: "@codemirror/merge", message: "The core never imports @codemirror/merge: its one entry brings @codemirror/view into the CLI bundle (the line diff is @jest/diff-sequences')." },
		],
		patterns: [{ group: ["**/ui", "**/ui/**", "**/main"], message: "The core never imports src/ui or the plugin entry: the dependency points from ui to the core." }],
	},
];

export const boundaries = { files: CORE_FILES, rules: { "no-restricted-imports": boundaryRule } };
