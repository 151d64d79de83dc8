/**
 * The page side of bench/stream-panel, bundled for Chromium with `obsidian` resolved to the browser
 * host's shim: a bare WebSocket client that only counts, and the same socket feeding the stream
 * panel (StreamStore → StreamView), both reading one server in one page.
 */
import { installDomHelpers } from "../../tests/e2e/host/obsidian-shim";
import { StreamStore } from "../../src/ui/stream/stream-store";
import { StreamView } from "../../src/ui/stream/stream-view";

export interface PassFigures {
	/** From the socket's open to the last message counted (bare) or placed and drawn (panel). */
	ms: number;
	/** The longest main-thread task (Long Tasks API: only tasks over 50 ms are reported; 0 means none). */
	longestTaskMs: number;
	/** Messages in the DOM at the end (panel only): the list stayed virtual. */
	messagesInDom: number;
}

const frame = () => new Promise<number>((r) => requestAnimationFrame(r));

/** Opens a socket to `url`, asks for `n` messages and resolves once `done()` says the pass is over. */
async function pass(url: string, n: number, onMessage: (ws: WebSocket, data: string, atMs: number) => void, done: () => boolean): Promise<{ ms: number; longestTaskMs: number }> {
	// The previous pass's garbage is collected before this one is measured: reading 100,000
	// messages' text leaves as many of Blink's string-cache handles, whose clearing in the next
	// full GC took 30-60 ms and landed in whichever pass came next (traced: V8's weak-handle phase).
	(globalThis as { gc?: () => void }).gc?.();
	await frame();
	const tasks: number[] = [];
	const observer = new PerformanceObserver((l) => tasks.push(...l.getEntries().map((e) => e.duration)));
	observer.observe({ type: "longtask" });
	const ws = new WebSocket(url);
	let t0 = 0;
	await new Promise<void>((resolve, reject) => {
		ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
		ws.onopen = () => {
			t0 = performance.now();
			ws.send(`go ${n}`);
			resolve();
		};
	});
	ws.onmessage = (e: MessageEvent<string>) => onMessage(ws, e.data, performance.now() - t0);
	while (!done()) await frame();
	const ms = performance.now() - t0;
	ws.close(1000);
	await frame();
	tasks.push(...observer.takeRecords().map((e) => e.duration));
	observer.disconnect();
	return { ms, longestTaskMs: Math.max(0, ...tasks) };
}

async function bare(url: string, n: number): Promise<PassFigures> {
	let count = 0;
	const r = await pass(url, n, () => void count++, () => count >= n);
	return { ...r, messagesInDom: 0 };
}

async function panel(url: string, n: number): Promise<PassFigures> {
	installDomHelpers();
	document.body.empty();
	let socket: WebSocket | null = null;
	const store = new StreamStore("websocket", (text) => socket?.send(text));
	const view = new StreamView(document.body, store);
	view.load();
	store.opened({ status: 101, statusText: "Switching Protocols", headers: [] }, {});
	const r = await pass(
		url,
		n,
		(ws, data, atMs) => {
			socket = ws;
			store.message({ direction: "received", atMs, data, binary: false, size: data.length });
		},
		// Done when the last message is placed and on screen (the list follows the bottom).
		() => view.messages.placed >= n && view.messages.window.last >= n,
	);
	const messagesInDom = view.el.querySelectorAll(".rb-stream-message").length;
	view.unload();
	return { ...r, messagesInDom };
}

(window as unknown as { __bench: unknown }).__bench = { bare, panel };
