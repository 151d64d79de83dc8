import type { Carrier } from "./text-module";

/**
 * The core's carrier in main.js (src/ui/text-module.ts): the build puts the core's code here, for
 * main.ts to prepare it one step per task before it requires the core. Run from source (the
 * tests), the core is an ordinary module and there is nothing to prepare.
 */
export const coreCarrier: Carrier | null = null;
