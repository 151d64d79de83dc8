/**
 * tldts as tough-cookie sees it in main.js (esbuild.config.mjs, `lazyTldts`): tough-cookie asks for
 * a public suffix only for a cookie with a Domain attribute, so the real tldts, ~106 KiB of public
 * suffix list, is its own text module, required on that first call instead of with the jar.
 * The CLI bundles neither: it requires tough-cookie, and so the real tldts, from node_modules.
 */
import type * as Tldts from "tldts";

let tldts: typeof Tldts | null = null;

function real(): typeof Tldts {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above); main.js resolves it to tldts's text module
	tldts ??= require("tldts") as typeof Tldts;
	return tldts;
}

/** tough-cookie's only use of tldts (getPublicSuffix.js). */
export const getDomain: typeof Tldts.getDomain = (url, options) => real().getDomain(url, options);
