/**
 * The hash functions the engine uses (the cache key, digest auth), gathered so that main.js
 * carries @noble/hashes as one text module, required through ./hashes on first use.
 */
export { md5 } from "@noble/hashes/legacy";
export { sha256 } from "@noble/hashes/sha2";
export { bytesToHex, randomBytes, utf8ToBytes } from "@noble/hashes/utils";
