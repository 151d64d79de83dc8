/**
 * jsdom's window has no TextEncoder or TextDecoder, which the engine's modules use when they load:
 * import this first in a jsdom spec that loads them (imports run in order).
 */
import { TextDecoder, TextEncoder } from "node:util";

Object.assign(globalThis, { TextEncoder, TextDecoder });
