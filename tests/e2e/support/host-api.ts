/**
 * Typed calls into the host page's API (`window.__host`, tests/e2e/host/host.ts) from a test:
 * the one place that knows where the API lives in the page, so a test only says what it does.
 */
import type { Page } from "playwright-core";
import type { HostApi } from "../host/host";

export type { HostApi };

/** The page's window as the host page leaves it. */
type HostWindow = { __host: HostApi };

/**
 * Runs `fn(api, arg)` in the page and returns its (awaited) result. `fn` is sent as source, so it
 * can use only its parameters; `arg` must survive structured cloning (strings, numbers, arrays, …).
 */
export async function callHost<T, A = undefined>(page: Page, fn: (api: HostApi, arg: A) => T, arg?: A): Promise<Awaited<T>> {
	const handle = await page.evaluateHandle(() => (window as unknown as HostWindow).__host);
	try {
		// Playwright types the argument as it arrives (unboxed handles); ours are plain values.
		return await handle.evaluate<Awaited<T>, unknown>(fn as (api: HostApi, arg: unknown) => Awaited<T>, arg);
	} finally {
		await handle.dispose();
	}
}

/** Waits until `fn(api, arg)` is truthy in the page (polled on animation frames, as `page.waitForFunction`). */
export async function untilHost<A = undefined>(page: Page, fn: (api: HostApi, arg: A) => unknown, arg?: A): Promise<void> {
	await page.waitForFunction(`(${fn.toString()})(window.__host, ${arg === undefined ? "undefined" : JSON.stringify(arg)})`);
}

/** The two calls bound to one page: `api((h) => h.loadPlugin())`, `until((h) => h.notices.length > 0)`. */
export interface HostCalls {
	api<T, A = undefined>(fn: (api: HostApi, arg: A) => T, arg?: A): Promise<Awaited<T>>;
	until<A = undefined>(fn: (api: HostApi, arg: A) => unknown, arg?: A): Promise<void>;
}

export function hostCalls(page: Page): HostCalls {
	return { api: (fn, arg) => callHost(page, fn, arg), until: (fn, arg) => untilHost(page, fn, arg) };
}
