/**
 * The build (esbuild.config.mjs, `deflated-wasm`) and the jest mapping in tests/support turn a
 * .wasm import into its raw-deflated bytes as one base64 string: a plain string constant in
 * main.js, decoded and inflated once, on first use (src/runner/sqljs.ts).
 */
declare module "*.wasm" {
	const base64: string;
	export default base64;
}

/**
 * `import source from "worker:./file"`: the module bundled on its own by esbuild (an IIFE for the
 * plugin's Web Worker or the CLI's worker thread) and given to the bundle as its text (esbuild.config.mjs).
 */
declare module "worker:*" {
	const source: string;
	export default source;
}
