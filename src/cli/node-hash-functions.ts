import { createHash, randomBytes as nodeRandomBytes } from "node:crypto";
import type { HashFunctions } from "../runner/hashes";

/**
 * The engine's hash functions in dist/cli.js: Node's native ones, in @noble/hashes's place
 * (esbuild.config.mjs). A CLI process is short and its code cold: there, the library's
 * JavaScript SHA-256 took ~0.1 ms per cache key and its load ~5 ms, so a 200-block run spent
 * ~15 ms hashing. The plugin keeps the library: it runs on mobile, where node:crypto is absent.
 */
const encoder = new TextEncoder();

/** A plain Uint8Array over a Buffer's bytes, as the library returns. */
function plain(buffer: Buffer): Uint8Array {
	return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

export const md5: HashFunctions["md5"] = (data) => plain(createHash("md5").update(data).digest());

export const sha256: HashFunctions["sha256"] = (data) => plain(createHash("sha256").update(data).digest());

export const bytesToHex: HashFunctions["bytesToHex"] = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");

export const randomBytes: HashFunctions["randomBytes"] = (length) => plain(nodeRandomBytes(length));

export const utf8ToBytes: HashFunctions["utf8ToBytes"] = (text) => encoder.encode(text);
