import type * as FetchTransportModule from "./fetch-transport";
import type * as NodeTransportModule from "./node-transport";

/**
 * The plugin's transports, required when the first request goes out rather than at Obsidian's
 * start: main.js carries each as a text module (docs/architecture.md, "Text modules").
 */
/* eslint-disable @typescript-eslint/no-require-imports -- see above */
export const nodeTransportModule = (): typeof NodeTransportModule => require("./node-transport") as typeof NodeTransportModule;
export const fetchTransportModule = (): typeof FetchTransportModule => require("./fetch-transport") as typeof FetchTransportModule;
/* eslint-enable @typescript-eslint/no-require-imports -- only those */
