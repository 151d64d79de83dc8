/** esbuild's `binary` loader (and the jest transform in tests/support) turn a .wasm import into its bytes. */
declare module "*.wasm" {
	const bytes: Uint8Array;
	export default bytes;
}
