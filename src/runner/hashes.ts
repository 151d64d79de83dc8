import type * as NobleHashes from "./hash-functions";

/** The hash functions the engine uses (the cache key, digest auth, S3's payload hash). */
export interface HashFunctions {
	md5: (data: Uint8Array) => Uint8Array;
	sha256: (data: Uint8Array) => Uint8Array;
	bytesToHex: (bytes: Uint8Array) => string;
	randomBytes: (length: number) => Uint8Array;
	utf8ToBytes: (text: string) => Uint8Array;
}

/**
 * @noble/hashes, required on the first run (the cache key) rather than at Obsidian's start: main.js
 * carries ./hash-functions as a text module (docs/architecture.md, "Text modules"). dist/cli.js has
 * Node's native functions in that module's place (src/cli/node-hash-functions.ts).
 */
export function hashes(): HashFunctions {
	// Assigned through the interface, so tsc checks that the library provides every function of it.
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	const functions: HashFunctions = require("./hash-functions") as typeof NobleHashes;
	return functions;
}
