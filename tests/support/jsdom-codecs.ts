/**
 * jsdom has no TextEncoder/TextDecoder, and modules under src/runner make one when loaded. A
 * DOM spec imports this first (imports run in order), so the page has Node's codecs by then.
 */
import { TextDecoder, TextEncoder } from "node:util";

Object.assign(globalThis, { TextEncoder, TextDecoder });
