/**
 * esbuild's `base64` loader (and the jest mapping in tests/support) turn a .wasm import into
 * its bytes as one base64 string: a plain string constant in main.js, decoded once on first use.
 */
declare module "*.wasm" {
	const base64: string;
	export default base64;
}
