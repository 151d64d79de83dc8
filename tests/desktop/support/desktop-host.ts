/**
 * The desktop host: the production main.js loaded the way Obsidian desktop loads it, inside a
 * jest worker, to run what only desktop runs (the node transport, history on the vault adapter).
 *
 * - The page is the Chromium host's own: tests/e2e/host/index.html and host.ts (the same app,
 *   vault adapter, workspace, reading view and `obsidian` shim), bundled by esbuild and run in
 *   a jsdom window. jsdom runs with `runScripts: "outside-only"`, so the window is a node:vm
 *   context with its own JavaScript globals, as a renderer window is. Running the shim there
 *   (rather than installing jsdom's globals into jest's realm and importing the TS files)
 *   keeps the shim in main.js's realm, as Obsidian has it, and leaves the worker's globals alone.
 * - Electron's renderer (nodeIntegration) adds Node's globals to that window: `process`,
 *   `Buffer`, `global`, `setImmediate`, `clearImmediate`; Chromium's web APIs that jsdom lacks
 *   or has only in slow JavaScript (TextEncoder/TextDecoder, fetch, crypto, structuredClone,
 *   atob/btoa) come from Node.
 * - main.js is compiled as `(function (module, exports, require) {…})` by `new vm.Script` in
 *   that context with no `importModuleDynamically`: an `import()` rejects, as in Obsidian.
 * - Its `require` gives the shim for `obsidian`, with `Platform.isDesktopApp = true` (the
 *   Chromium host has false), and Node's own require for what Obsidian provides besides: Node
 *   builtins and @codemirror/* / @lezer/* from node_modules (the page bundle gets those from
 *   it too, so main.js and the shim share one CodeMirror). Anything else throws, as in Obsidian.
 *   `failRequireOnce` makes one require throw (a run whose preparation fails).
 * - The page's origin (GET /main.js, the vault write-through PUT /__vault/…) is answered
 *   in-process, as the Chromium host's static server answers it (tests/e2e/support/host.ts).
 * - An exception in a window event listener (jsdom reports it to its virtual console only) fails
 *   `close()`, like a page error there; an unhandled rejection fails the running test (jest does).
 *
 * One difference from Electron remains: Node's builtins live in Node's realm and the plugin in
 * the window's, so a Buffer or an Error made by Node is not `instanceof` the window's classes.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import * as vm from "node:vm";
import { webcrypto } from "node:crypto";
import * as esbuild from "esbuild";
import type * as Jsdom from "jsdom";
import type { HostApi } from "../../e2e/support/host-api";

const ROOT = resolve(__dirname, "..", "..", "..");
const MAIN_JS = join(ROOT, "main.js");
/** Node's own require (not jest's module registry), resolving from the plugin's folder. */
const nodeRequire = createRequire(MAIN_JS);
const { JSDOM, VirtualConsole } = nodeRequire("jsdom") as typeof Jsdom;
const realProcess = nodeRequire("process") as NodeJS.Process;

/** What Obsidian's require provides to a plugin besides `obsidian` (docs/architecture.md). */
const PROVIDED = new Set([
	...builtinModules,
	...builtinModules.map((m) => `node:${m}`),
	...["autocomplete", "collab", "commands", "language", "lint", "search", "state", "view"].map((p) => `@codemirror/${p}`),
	...["common", "highlight", "lr"].map((p) => `@lezer/${p}`),
]);

type Module = { exports: Record<string, unknown> };
type Require = (name: string) => unknown;

export interface DesktopHost {
	window: Jsdom.DOMWindow;
	document: Document;
	/** The page's `__host` (tests/e2e/host/host.ts). */
	page: HostApi;
	/** Loads the production main.js as Obsidian desktop does; returns the code block languages it registered. */
	loadPlugin(): Promise<string[]>;
	/** Compiles and runs CommonJS code in the window exactly as main.js is (same vm options). */
	evaluate(code: string, filename: string, require: Require): Record<string, unknown>;
	/** Every name main.js passed to require, in order. */
	required: string[];
	/** The next require(name) from main.js throws an Error with this message (once). */
	failRequireOnce(name: string, message: string): void;
	/**
	 * Runs the callbacks the page queued with `requestIdleCallback`; returns how many ran. Chromium
	 * runs them when the page has nothing to do, which in a test would race the test's own checks
	 * (on a busy machine a run's preparation came before the check that nothing was loaded yet):
	 * here an idle moment comes only when the test calls this.
	 */
	idle(): number;
	/** Exceptions thrown in the window's event listeners, timers and idle callbacks so far. */
	errors: string[];
	/** The vault folder on disk: text files the adapter writes go through to it. */
	vaultDir: string;
	close(): Promise<void>;
}

let pageBundle: Promise<string> | null = null;

/** host.ts as CommonJS; what Obsidian provides stays a require, answered by Node (see the header). */
function bundlePage(): Promise<string> {
	pageBundle ??= esbuild
		.build({
			entryPoints: [join(ROOT, "tests", "e2e", "host", "host.ts")],
			bundle: true,
			format: "cjs",
			platform: "browser",
			target: "es2021",
			write: false,
			logLevel: "error",
			external: ["@codemirror/*", "@lezer/*"],
		})
		.then((r) => r.outputFiles[0].text);
	return pageBundle;
}

function compile(context: vm.Context, code: string, filename: string): (module: Module, exports: Module["exports"], require: Require) => void {
	// No importModuleDynamically: a dynamic import() in this code rejects (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
	const script = new vm.Script(`(function (module, exports, require) {${code}\n})`, { filename });
	return script.runInContext(context) as (module: Module, exports: Module["exports"], require: Require) => void;
}

/**
 * Node's webcrypto with its digests handed back as the window's ArrayBuffers: Chromium's crypto
 * lives in the page's realm, and libraries check `instanceof ArrayBuffer` (oauth4webapi's PKCE
 * challenge encoding does).
 */
function windowCrypto(window: Jsdom.DOMWindow): Crypto {
	const { Uint8Array: PageBytes } = window as unknown as typeof globalThis;
	const subtle = new Proxy(webcrypto.subtle, {
		get(target, key) {
			if (key === "digest") return async (algorithm: AlgorithmIdentifier, data: BufferSource) => PageBytes.from(new Uint8Array(await target.digest(algorithm, data))).buffer;
			const value = Reflect.get(target, key, target) as unknown;
			return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
		},
	});
	return new Proxy(webcrypto, {
		get(target, key) {
			if (key === "subtle") return subtle;
			const value = Reflect.get(target, key, target) as unknown;
			return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
		},
	}) as Crypto;
}

export async function launchDesktopHost(): Promise<DesktopHost> {
	if (!existsSync(MAIN_JS)) throw new Error("main.js is not built: run `npm run build` first");
	const errors: string[] = [];
	const virtualConsole = new VirtualConsole();
	virtualConsole.on("jsdomError", (e: Error) => errors.push(String(e.stack ?? e)));
	// "outside-only": the page's <script> tag is not run; its bundle is evaluated below, as main.js is.
	// pretendToBeVisual: requestAnimationFrame, which the panel's body view renders on.
	const html = readFileSync(join(ROOT, "tests", "e2e", "host", "index.html"), "utf8");
	const dom = new JSDOM(html, { runScripts: "outside-only", pretendToBeVisual: true, url: "http://127.0.0.1/", virtualConsole });
	const window = dom.window;
	const context = dom.getInternalVMContext();
	const vaultDir = mkdtempSync(join(tmpdir(), "rb-desktop-vault-"));

	/** The page's origin, as tests/e2e/support/host.ts serves it; any other URL goes to the network. */
	const pageFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
		if (typeof input === "string" && input === "/main.js") return new Response(readFileSync(MAIN_JS, "utf8"), { headers: { "Content-Type": "text/javascript" } });
		if (typeof input === "string" && input.startsWith("/__vault/") && init?.method === "PUT") {
			const target = resolve(vaultDir, decodeURIComponent(input.slice("/__vault/".length)));
			if (!target.startsWith(vaultDir + sep)) return new Response(null, { status: 403 });
			mkdirSync(dirname(target), { recursive: true });
			writeFileSync(target, typeof init.body === "string" ? init.body : Buffer.from(init.body as ArrayBuffer));
			return new Response(null, { status: 204 });
		}
		if (typeof input === "string" && input.startsWith("/")) return new Response(null, { status: 404 });
		return fetch(input, init);
	};
	const idleQueue = new Map<number, IdleRequestCallback>();
	let idleIds = 0;
	const renderer: Record<string, unknown> = {
		process: realProcess,
		Buffer,
		global: window,
		setImmediate,
		clearImmediate,
		TextEncoder,
		TextDecoder,
		// jsdom's are written in JavaScript (~0.3 s for the embedded wasm's base64); Chromium's are native.
		atob,
		btoa,
		fetch: pageFetch,
		Headers,
		Request,
		Response,
		structuredClone,
		crypto: windowCrypto(window),
		// Electron's renderer has them; jsdom does not. They run on `idle()` (see DesktopHost).
		requestIdleCallback: (callback: IdleRequestCallback) => (idleQueue.set(++idleIds, callback), idleIds),
		cancelIdleCallback: (id: number) => void idleQueue.delete(id),
	};
	for (const [name, value] of Object.entries(renderer)) Object.defineProperty(window, name, { value, configurable: true, writable: true });

	const pageRequire: Require = (name) => {
		if (name.startsWith("@codemirror/") || name.startsWith("@lezer/")) return nodeRequire(name);
		throw new Error(`the host page required "${name}"`);
	};
	compile(context, await bundlePage(), join(ROOT, "tests", "e2e", "host", "host.js"))({ exports: {} }, {}, pageRequire);
	const page = (window as unknown as { __host: HostApi }).__host;

	const required: string[] = [];
	const failures = new Map<string, string>();
	const ErrorInWindow = (window as unknown as { Error: ErrorConstructor }).Error;
	const pluginRequire =
		(modules: Record<string, unknown>): Require =>
		(name) => {
			required.push(name);
			const failure = failures.get(name);
			if (failure !== undefined) {
				failures.delete(name);
				// Made in the window's realm, as Obsidian's require would make it in the renderer's.
				throw new ErrorInWindow(failure);
			}
			if (name === "obsidian") return modules.obsidian;
			if (PROVIDED.has(name)) return nodeRequire(name) as unknown;
			throw new ErrorInWindow(`main.js required "${name}", which Obsidian does not provide`);
		};

	let closed = false;
	return {
		window,
		document: window.document,
		page,
		required,
		errors,
		vaultDir,
		evaluate: (code, filename, require) => {
			const module: Module = { exports: {} };
			compile(context, code, filename)(module, module.exports, require);
			return module.exports;
		},
		loadPlugin: () =>
			page.loadPlugin((code, module, modules) => {
				(modules.obsidian as { Platform: { isDesktopApp: boolean } }).Platform.isDesktopApp = true;
				compile(context, code, MAIN_JS)(module, module.exports, pluginRequire(modules));
			}),
		failRequireOnce: (name, message) => void failures.set(name, message),
		idle: () => {
			const due = [...idleQueue.values()];
			idleQueue.clear();
			for (const callback of due) {
				try {
					callback({ didTimeout: false, timeRemaining: () => 50 });
				} catch (e) {
					errors.push(String((e as Error).stack ?? e));
				}
			}
			return due.length;
		},
		close: async () => {
			if (closed) return;
			closed = true;
			page.unloadPlugin();
			// Let the unload's own work (history flush, sockets) finish before the window goes.
			await new Promise((r) => setTimeout(r, 50));
			window.close();
			rmSync(vaultDir, { recursive: true, force: true });
			if (errors.length) throw new Error(`desktop host errors:\n${errors.join("\n")}`);
		},
	};
}

/**
 * CodeMirror in main.js is Node's (Obsidian's require gives it), which reads the DOM from globals:
 * this gives it the host window's for the calling test file.
 */
export function lendHostWindow(host: DesktopHost): void {
	const w = host.window;
	Object.assign(globalThis, { document: host.document, window: w, navigator: w.navigator, MutationObserver: w.MutationObserver, requestAnimationFrame: w.requestAnimationFrame.bind(w), getComputedStyle: w.getComputedStyle.bind(w) });
}

/** jsdom lays nothing out and its ranges have no boxes; CodeMirror measures text through them. */
export function giveRangesEmptyBoxes(host: DesktopHost): void {
	const { DOMRect } = host.window as unknown as typeof globalThis;
	Object.assign(host.window.Range.prototype, { getClientRects: () => [], getBoundingClientRect: () => new DOMRect() });
}

/**
 * The ids of the text modules main.js compiles from now on, in order, each to be evaluated: main.js
 * builds each with the window's Function (src/ui/text-module.ts; the core a task ahead of its
 * evaluation), and each text starts with its `/*! text module <id> *\/` mark.
 */
export function watchTextModules(host: DesktopHost): string[] {
	const evaluated: string[] = [];
	const win = host.window as unknown as { Function: FunctionConstructor };
	win.Function = new Proxy(win.Function, {
		construct(target, args: string[]) {
			const mark = /^\/\*! text module (\S+) \*\//.exec(args[args.length - 1] ?? "");
			if (mark) evaluated.push(mark[1]);
			return Reflect.construct(target, args);
		},
	});
	return evaluated;
}

/** Polls until `check` returns a value other than undefined/false. */
export async function waitFor<T>(what: string | (() => string), check: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const v = check();
		if (v !== undefined && v !== false) return v;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
		await new Promise((r) => setTimeout(r, 5));
	}
}

/** The rendered block with this alias (the Chromium tests' `.rb-block` with `.rb-alias` "alias NAME"). */
export function blockOf(doc: Document, alias: string): HTMLElement {
	const block = [...doc.querySelectorAll<HTMLElement>(".rb-block")].find((b) => b.querySelector(".rb-alias")?.textContent === `alias ${alias}`);
	if (!block) throw new Error(`no block with alias ${alias}`);
	return block;
}

export function panelOf(doc: Document, alias: string): HTMLElement {
	const panel = blockOf(doc, alias).querySelector<HTMLElement>(".rb-panel");
	if (!panel) throw new Error(`block ${alias} has no panel`);
	return panel;
}

export function text(el: ParentNode, selector: string): string | null {
	return el.querySelector(selector)?.textContent ?? null;
}

export function texts(el: ParentNode, selector: string): string[] {
	return [...el.querySelectorAll(selector)].map((e) => e.textContent ?? "");
}

const FINAL = new Set(["done", "cached", "failed", "cancelled"]);

/**
 * Clicks the panel's Run button (Stop while it runs), as a user does. Resolves once the panel
 * has changed (a MutationObserver on its state), and, with `untilFinal`, once it is final.
 */
export async function clickRun(doc: Document, alias: string, untilFinal = false, timeoutMs?: number): Promise<string> {
	const panel = panelOf(doc, alias);
	let changed = false;
	const observer = new (doc.defaultView as unknown as typeof globalThis).MutationObserver(() => (changed = true));
	observer.observe(panel, { attributes: true, attributeFilter: ["data-state", "data-started-at"] });
	try {
		panel.querySelector<HTMLButtonElement>(".rb-run")?.click();
		return await waitFor(`${alias} to ${untilFinal ? "finish" : "change"}`, () => (changed && (!untilFinal || FINAL.has(panel.dataset.state ?? "")) ? (panel.dataset.state ?? "") : undefined), timeoutMs);
	} finally {
		observer.disconnect();
	}
}

/** Clicks Run and waits for that run to end; returns the final state. */
export function run(doc: Document, alias: string, timeoutMs?: number): Promise<string> {
	return clickRun(doc, alias, true, timeoutMs);
}

/** Waits for the panel to be in `state`. */
export function stateOf(doc: Document, alias: string, state: string, timeoutMs?: number): Promise<HTMLElement> {
	const panel = panelOf(doc, alias);
	return waitFor(() => `${alias} to be ${state} (is ${panel.dataset.state})`, () => panel.dataset.state === state && panel, timeoutMs);
}

/** Clicks a tab of the block's panel. */
export function showTab(doc: Document, alias: string, tab: "body" | "headers" | "cookies" | "tests" | "timing" | "raw"): HTMLElement {
	const panel = panelOf(doc, alias);
	panel.querySelector<HTMLElement>(`.rb-tab[data-tab="${tab}"]`)?.click();
	return panel;
}
