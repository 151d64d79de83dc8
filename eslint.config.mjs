// Lint: eslint-plugin-obsidianmd's recommended config over everything we write — the plugin,
// the CLI, tests, benchmarks and the Node scripts. Every rule switched off below says why,
// and only for the files where it fires for that reason.
import { defineConfig, globalIgnores } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
// The plugin's own parser for plain-text files (each line a token), which validate-license reads.
import { PlainTextParser } from "eslint-plugin-obsidianmd/dist/lib/plainTextParser.js";
import tseslint from "typescript-eslint";
import { boundaries } from "./eslint.boundaries.mjs";

/** Node's own globals, for the .js/.mjs/.cjs programs (the recommended config gives browser globals). */
const nodeGlobals = {
	process: "readonly",
	Buffer: "readonly",
	__dirname: "readonly",
	__filename: "readonly",
	require: "readonly",
	module: "writable",
	exports: "writable",
	global: "readonly",
};

/**
 * obsidianmd/rule-custom-message without its `no-console` entry: printing is the job of a
 * command-line program or a benchmark. The `Function`-constructor check it also carries stays on.
 */
const consoleAllowed = [
	"error",
	{
		"no-new-func": {
			messages: { "The Function constructor is eval": "Using the `Function` constructor is dangerous because it executes arbitrary code, similar to `eval()`" },
		},
	},
];

export default defineConfig([
	// Generated or third-party files only: main.js and dist/ are build output, the example vault's
	// plugin folder holds a copy of the build, the rest are caches and test output.
	globalIgnores([
		"node_modules/**",
		"main.js",
		"dist/**",
		"coverage/**",
		"examples/vault/.obsidian/**",
		"bench/.cache/**",
		"tests/e2e/.out/**",
	]),
	...obsidianmd.configs.recommended,
	{
		files: ["**/*.{ts,cts,mts}"],
		languageOptions: {
			parserOptions: {
				projectService: true,
				tsconfigRootDir: import.meta.dirname,
			},
		},
		rules: {
			// TypeScript reports undefined names itself (TS2304) and knows the DOM, Node and jest
			// globals from tsconfig's lib/types, which ESLint's no-undef cannot read: it flags
			// `process`, `describe`, `NodeJS`… (typescript-eslint advises turning it off for TS).
			"no-undef": "off",
		},
	},
	{
		// Node programs: the build (esbuild.config.mjs), scripts/, bench runners, the CLI launcher,
		// the demo API, jest's and ESLint's configs. None of them is part of main.js.
		files: ["**/*.{js,mjs,cjs}"],
		languageOptions: { globals: nodeGlobals },
		rules: {
			// Node's builtins are what these programs are made of; the rule guards the mobile plugin bundle.
			"obsidianmd/no-nodejs-modules": "off",
			// Node has no `window`: window.setTimeout does not exist there.
			"obsidianmd/prefer-window-timers": "off",
			"obsidianmd/rule-custom-message": consoleAllowed,
		},
	},
	{
		// CommonJS on purpose: the bin launcher `require`s the built CLI; the demo API is a .cjs the
		// CLI bundle and jest both load without ESM; jest's wasm stand-in is a CommonJS module.
		files: ["**/*.cjs", "bin/**/*.js", "tests/support/**/*.js"],
		rules: { "@typescript-eslint/no-require-imports": "off" },
	},
	{
		// The build installs the plugin into the example vault, whose config folder is `.obsidian`
		// on disk (no Vault#configDir outside Obsidian); this file names it to ignore it.
		files: ["esbuild.config.mjs", "eslint.config.mjs"],
		rules: { "obsidianmd/hardcoded-config-path": "off" },
	},
	{
		// Tests, benchmarks and the screenshot script run in Node (jest) or drive Chromium from Node; they are not plugin code.
		files: ["tests/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"],
		rules: {
			// They start servers, read fixtures and spawn the CLI with Node's builtins.
			"obsidianmd/no-nodejs-modules": "off",
			// Node has no `window`: window.setTimeout does not exist there.
			"obsidianmd/prefer-window-timers": "off",
			// They stub or inspect the global object itself (navigator, fetch, global agents).
			"obsidianmd/no-global-this": "off",
			// They build throwaway vaults on disk, where the config folder is Obsidian's default `.obsidian`.
			"obsidianmd/hardcoded-config-path": "off",
			"obsidianmd/rule-custom-message": consoleAllowed,
		},
	},
	{
		// End-to-end tests and the panel benchmark call their own local servers from Node or from
		// the test page with fetch; requestUrl exists only inside Obsidian. The desktop host gives
		// its page Node's fetch, standing for Chromium's.
		files: ["tests/e2e/**/*.ts", "tests/desktop/**/*.ts", "bench/panel/**/*.ts", "bench/bundle/**/*.ts"],
		rules: { "no-restricted-globals": "off" },
	},
	{
		// The browser test host stands in for Obsidian itself, and the panel benchmark's naive
		// baseline must not use Obsidian's helpers: they create elements with the plain DOM API
		// (the host defines createEl & co. on top of it).
		files: ["tests/e2e/host/**/*.ts", "bench/panel/**/*.ts"],
		rules: { "obsidianmd/prefer-create-el": "off" },
	},
	{
		// The host evaluates main.js the way Obsidian does: a CommonJS wrapper built with
		// `new Function(...)` and called — exactly what these three rules forbid, on purpose here;
		// the bundle benchmark times that compilation.
		files: ["tests/e2e/host/host.ts", "bench/bundle/**/*.ts"],
		rules: {
			"@typescript-eslint/no-implied-eval": "off",
			"@typescript-eslint/no-unsafe-call": "off",
			"obsidianmd/rule-custom-message": "off",
		},
	},
	{
		// The plugin's one evaluation of code: the modules main.js carries as text, compiled on first
		// use (esbuild.config.mjs `TEXT_MODULES`, docs/architecture.md), wrapped the way Obsidian
		// wraps main.js itself.
		files: ["src/ui/text-module.ts"],
		rules: { "@typescript-eslint/no-implied-eval": "off", "obsidianmd/rule-custom-message": "off" },
	},
	{
		// manifest.json against the store's submission rules (in the recommended rule set, but the
		// recommended config lints only code). typescript-eslint's parser reads JSON as one object.
		files: ["manifest.json"],
		languageOptions: { parser: tseslint.parser },
		rules: { "obsidianmd/validate-manifest": "error" },
	},
	{
		// LICENSE: the copyright line must name us and the current year (obsidianmd/validate-license;
		// a warning, as in the recommended set, so a new year does not fail CI by itself).
		files: ["LICENSE"],
		languageOptions: { parser: PlainTextParser },
		rules: { "obsidianmd/validate-license": "warn" },
	},
	{
		// The CLI runs in Node: builtins, plain timers, and no Vault#configDir — it looks for
		// Obsidian's default `.obsidian` (and takes --config).
		files: ["src/cli/**/*.ts"],
		rules: {
			"obsidianmd/no-nodejs-modules": "off",
			"obsidianmd/prefer-window-timers": "off",
			"obsidianmd/hardcoded-config-path": "off",
		},
	},
	{
		// The node transport is Node's http/https by definition; the plugin loads it only when
		// Platform.isDesktopApp (docs/architecture.md), and the CLI uses it too.
		files: ["src/runner/http/node-*.ts"],
		rules: { "obsidianmd/no-nodejs-modules": "off" },
	},
	{
		// Auth (issue 26): the browser's return to a sign-in is received by a loopback server, which
		// needs Node; the plugin requires it only when Platform.isDesktopApp, and the CLI uses it too.
		files: ["src/runner/auth/loopback-redirect.ts"],
		rules: { "obsidianmd/no-nodejs-modules": "off" },
	},
	{
		// The opt-in fetch transport exists to use fetch: streaming and a real cancel where Node is
		// absent, which requestUrl cannot do (docs/settings.md, "transport").
		files: ["src/runner/http/fetch-transport.ts"],
		rules: { "no-restricted-globals": "off" },
	},
	{
		// The engine also runs headless in the CLI (Node, no window): plain timers. So does the chat client in its tests.
		files: ["src/runner/**/*.ts", "src/chat/**/*.ts"],
		rules: { "obsidianmd/prefer-window-timers": "off" },
	},
	// The core never imports obsidian or src/ui (eslint.boundaries.mjs).
	boundaries,
]);
