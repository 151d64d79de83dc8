/**
 * esbuild's `base64` loader (and the jest mapping in tests/support) turn a .wasm import into
 * its bytes as one base64 string: a plain string constant in main.js, decoded once on first use.
 */
declare module "*.wasm" {
	const base64: string;
	export default base64;
}

/**
 * `import source from "worker:./file"`: the module bundled on its own by esbuild (an IIFE for a
 * Web Worker) and given to main.js as its text (esbuild.config.mjs).
 */
declare module "worker:*" {
	const source: string;
	export default source;
}
