import { defineConfig, globalIgnores } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";

export default defineConfig([
	globalIgnores([
		"node_modules/**",
		"main.js",
		"dist/**",
		"coverage/**",
		"examples/vault/.obsidian/**",
		"**/*.js",
		"**/*.mjs",
		"**/*.cjs",
		"bench/.cache/**",
		"tests/e2e/.out/**",
	]),
	...obsidianmd.configs.recommended,
	{
		languageOptions: {
			parserOptions: {
				projectService: { allowDefaultProject: ["eslint.config.mjs"] },
				tsconfigRootDir: import.meta.dirname,
			},
		},
		// TypeScript checks undefined names itself (and knows Node/DOM globals per tsconfig).
		rules: { "no-undef": "off" },
	},
	{
		// Tests, benchmarks and the CLI are not plugin code: Node APIs and console output are their job.
		files: ["tests/**/*.ts", "bench/**/*.ts", "src/cli/**/*.ts"],
		rules: {
			"no-console": "off",
			"obsidianmd/rule-custom-message": "off",
			"obsidianmd/prefer-window-timers": "off",
			"obsidianmd/no-global-this": "off",
			"obsidianmd/hardcoded-config-path": "off",
			"import/no-nodejs-modules": "off",
			"obsidianmd/no-nodejs-modules": "off",
			// Tests talk to their own local servers with Node's fetch.
			"no-restricted-globals": "off",
		},
	},
	{
		// Node-only modules: the plugin loads the node transport only when Platform.isDesktopApp
		// (through dynamic imports), and the CLI runs in Node, where there is no window.
		files: ["src/runner/http/node-*.ts", "src/cli/**/*.ts"],
		rules: {
			// The CLI has no Vault#configDir: it looks for Obsidian's default `.obsidian` (and takes --config).
			"obsidianmd/hardcoded-config-path": "off",
			"obsidianmd/no-nodejs-modules": "off",
			"import/no-nodejs-modules": "off",
			"obsidianmd/prefer-window-timers": "off",
		},
	},
	{
		// The browser test host stands in for Obsidian itself: it builds the DOM helpers, backs
		// requestUrl with fetch and evaluates main.js as Obsidian does (a CommonJS wrapper).
		files: ["tests/e2e/host/**/*.ts", "bench/panel/**/*.ts"],
		rules: {
			"obsidianmd/prefer-create-el": "off",
			"no-restricted-globals": "off",
			"@typescript-eslint/no-implied-eval": "off",
			"@typescript-eslint/no-unsafe-call": "off",
		},
	},
	{
		// The opt-in fetch transport exists to use fetch: streaming and a real cancel where Node is
		// absent, which requestUrl cannot do (docs/settings.md, "transport").
		files: ["src/runner/http/fetch-transport.ts"],
		rules: { "no-restricted-globals": "off" },
	},
	{
		// The engine also runs headless in the CLI (Node, no window): plain timers.
		files: ["src/runner/**/*.ts"],
		rules: { "obsidianmd/prefer-window-timers": "off" },
	},
]);
