/**
 * The auth libraries, each loaded on its first use: most runs use no auth, and Obsidian's
 * start-up should not pay for compiling an OAuth client, a JWT decoder or a request signer.
 * Bundled into main.js and dist/cli.js.
 */
import type * as OAuth from "oauth4webapi";
import type * as Jose from "jose";
import type * as Aws4 from "aws4";

let oauth: typeof OAuth | null = null;
let jose: typeof Jose | null = null;
let aws4: typeof Aws4 | null = null;

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use (see above) */
export const oauthLibrary = (): typeof OAuth => (oauth ??= require("oauth4webapi") as typeof OAuth);
export const joseLibrary = (): typeof Jose => (jose ??= require("jose") as typeof Jose);
export const aws4Library = (): typeof Aws4 => (aws4 ??= require("aws4") as typeof Aws4);
/* eslint-enable @typescript-eslint/no-require-imports -- the loaders end here */
