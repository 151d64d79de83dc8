/**
 * jsdom has no TextEncoder/TextDecoder, and some src modules make one when loaded: imported first
 * by a jsdom spec, this gives the page Node's before those modules load.
 */
import { TextDecoder, TextEncoder } from "node:util";

Object.assign(globalThis, { TextEncoder, TextDecoder });
