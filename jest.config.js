/**
 * Jest projects mirror the test layers: unit (pure), integration (real local servers), e2e (real
 * Chromium), desktop (the production main.js in a node:vm + jsdom host, as Obsidian desktop loads it), interop (the
 * peers' `.http` corpus, tests/interop).
 */
const tsJest = [
	"ts-jest",
	{ tsconfig: { module: "commonjs", moduleResolution: "node", isolatedModules: true } },
];
/** ESM-only packages (the auth client and JWT decoder) that jest's CommonJS runtime must have compiled; esbuild bundles them as they are. */
const esmOnly = ["oauth4webapi", "jose"];
const shared = {
	transform: {
		"^.+\\.ts$": tsJest,
		[`/node_modules/(${esmOnly.join("|")})/.+\\.js$`]: ["ts-jest", { tsconfig: { module: "commonjs", allowJs: true, isolatedModules: true } }],
	},
	transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join("|")})/)`],
	moduleNameMapper: {
		"^obsidian$": "<rootDir>/tests/mocks/obsidian.ts",
		// The bytes of sql.js's WebAssembly, as esbuild's binary loader gives them to the bundle.
		"^sql\\.js/dist/sql-wasm\\.wasm$": "<rootDir>/tests/support/sql-wasm-bytes.js",
		// The SQLite worker's source, which esbuild bundles into main.js; jest has no workers, so the plugin's driver runs on the main thread there.
		"^worker:.*$": "<rootDir>/tests/support/worker-source.js",
	},
	testEnvironment: "node",
	moduleFileExtensions: ["ts", "js", "json", "wasm"],
};
module.exports = {
	projects: [
		{ ...shared, displayName: "unit", testMatch: ["<rootDir>/tests/unit/**/*.test.ts"] },
		{ ...shared, displayName: "integration", testMatch: ["<rootDir>/tests/integration/**/*.test.ts"] },
		{ ...shared, displayName: "e2e", testMatch: ["<rootDir>/tests/e2e/**/*.test.ts"] },
		{ ...shared, displayName: "desktop", testMatch: ["<rootDir>/tests/desktop/**/*.test.ts"] },
		{ ...shared, displayName: "interop", testMatch: ["<rootDir>/tests/interop/**/*.test.ts"] },
	],
};
