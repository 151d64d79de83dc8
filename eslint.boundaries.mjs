// The core/adapter boundary (DESIGN.md section 2), as a lint rule: the core — the block language,
// the engine, settings, the CLI — never imports `obsidian` or the UI adapters. eslint.config.mjs
// applies it; tests/unit/build/boundaries.test.ts proves it catches a violation.
export const CORE_FILES = ["src/blocks/**/*.ts", "src/runner/**/*.ts", "src/settings/**/*.ts", "src/cli/**/*.ts", "src/chat/**/*.ts", "src/vcs/**/*.ts"];

export const boundaryRule = [
	"error",
	{
		paths: [{ name: "obsidian", message: "The core never imports obsidian: declare a port here and implement it in src/ui (DESIGN.md section 2)." }],
		patterns: [{ group: ["**/ui", "**/ui/**", "**/main"], message: "The core never imports src/ui or the plugin entry: the dependency points from ui to the core." }],
	},
];

export const boundaries = { files: CORE_FILES, rules: { "no-restricted-imports": boundaryRule } };
