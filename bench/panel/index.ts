/**
 * bench/panel — a 50 MB JSON response in Chromium: time to the first rendered body line and the
 * longest main-thread task (PerformanceObserver "longtask") while the panel renders it, against
 * a naive baseline in the same page and run (JSON.parse + JSON.stringify(…, null, 2) + one text
 * node). Usage: node bench/run.mjs panel   (after npm run build)
 */
import { launchHost } from "../../tests/e2e/support/host";
import { report } from "../support/report";

interface Figures {
	firstLineMs: number;
	longestTaskMs: number;
}

type Win = Window & { __bench: { tasks: Array<[number, number]>; t0: number; first: number; inHand: number } };

async function main(): Promise<void> {
	const host = await launchHost();
	try {
		const { page, url } = host;
		await host.api((h) => h.loadPlugin());
		await host.api((h, md) => h.renderReading(md), `\`\`\`http alias=big timeout=120000\nGET ${url}/api/big.json\n\`\`\`\n\n\`\`\`http alias=warm\nGET ${url}/api/json\n\`\`\``);
		// Warm-up: the first run loads sql.js for history; that one-time cost is not body rendering.
		await page.locator(".rb-panel").nth(1).locator(".rb-run").click();
		await page.locator('.rb-panel[data-state="done"]').first().waitFor();

		// Plugin: from the moment the run is done (body in memory) to the first line on screen, and the
		// longest task until the whole body is formatted.
		const plugin = await page.evaluate(async (): Promise<Figures> => {
			const w = window as unknown as Win;
			w.__bench = { tasks: [], t0: 0, first: 0, inHand: 0 };
			new PerformanceObserver((list) => {
				for (const e of list.getEntries()) w.__bench.tasks.push([e.startTime, e.duration]);
			}).observe({ entryTypes: ["longtask"] });
			// The body in the plugin's hands: the host's requestUrl resolves with the bytes of fetch's
			// arrayBuffer(). Making that buffer is the page's network stack, not the panel: in this host
			// it alone holds the main thread ~0.2-0.7 s for 50 MB (Obsidian's requestUrl runs it in the
			// main process; desktop streams through the node transport).
			// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the response as `this`
			const arrayBuffer = Response.prototype.arrayBuffer;
			Response.prototype.arrayBuffer = async function (this: Response) {
				const bytes = await arrayBuffer.call(this);
				if (this.url.includes("/api/big.json")) w.__bench.inHand = performance.now();
				return bytes;
			};
			const panel = document.querySelector(".rb-panel") as HTMLElement;
			const done = new Promise<void>((resolve) => {
				new MutationObserver((_m, obs) => {
					if (!w.__bench.t0 && panel.dataset.state === "done") w.__bench.t0 = performance.now();
					if (w.__bench.t0 && !w.__bench.first && panel.querySelector(".rb-vtext-line")) w.__bench.first = performance.now();
					if (/lines$/.test(panel.querySelector(".rb-body-status")?.textContent ?? "")) {
						obs.disconnect();
						resolve();
					}
				}).observe(panel, { subtree: true, childList: true, attributes: true, characterData: true });
			});
			(panel.querySelector(".rb-run") as HTMLElement).click();
			await done;
			await new Promise((r) => setTimeout(r, 200));
			// From the body in hand to the first line on screen; the tasks from then until it is all formatted.
			const from = w.__bench.inHand || w.__bench.t0;
			return { firstLineMs: w.__bench.first - from, longestTaskMs: Math.max(0, ...w.__bench.tasks.filter(([start]) => start >= from).map(([, d]) => d)) };
		});

		// Naive baseline on the same bytes in the same page.
		const naive = await page.evaluate(async (src): Promise<Figures> => {
			const bytes = new Uint8Array(await (await fetch(src)).arrayBuffer());
			const tasks: number[] = [];
			const t0 = performance.now();
			new PerformanceObserver((list) => {
				for (const e of list.getEntries()) if (e.startTime >= t0 - 1) tasks.push(e.duration);
			}).observe({ entryTypes: ["longtask"] });
			const pre = document.body.appendChild(document.createElement("pre"));
			pre.textContent = JSON.stringify(JSON.parse(new TextDecoder().decode(bytes)), null, 2);
			await new Promise((r) => requestAnimationFrame(() => r(null)));
			const first = performance.now();
			await new Promise((r) => setTimeout(r, 500));
			pre.remove();
			return { firstLineMs: first - t0, longestTaskMs: Math.max(0, ...tasks) };
		}, `${url}/api/big.json`);

		const fmt = (f: Figures) => `first line ${f.firstLineMs.toFixed(0)} ms, longest task ${f.longestTaskMs.toFixed(0)} ms`;
		console.log(`50 MB JSON — panel: ${fmt(plugin)} | naive parse+stringify+text node: ${fmt(naive)}`);
		report("panel", { figure: "50 MB JSON: first body line", value: `${plugin.firstLineMs.toFixed(0)} ms`, baseline: `naive ${naive.firstLineMs.toFixed(0)} ms`, result: `${(plugin.firstLineMs / naive.firstLineMs).toFixed(2)}×`, target: "≤ 300 ms, better than naive", met: plugin.firstLineMs <= 300 && plugin.firstLineMs < naive.firstLineMs });
		report("panel", { figure: "50 MB JSON: longest task", value: `${plugin.longestTaskMs.toFixed(0)} ms`, baseline: `naive ${naive.longestTaskMs.toFixed(0)} ms`, result: `${(plugin.longestTaskMs / naive.longestTaskMs).toFixed(2)}×`, target: "≤ 100 ms, better than naive", met: plugin.longestTaskMs <= 100 && plugin.longestTaskMs < naive.longestTaskMs });
		console.log(`targets: first line ≤ 300 ms (${plugin.firstLineMs <= 300 ? "met" : "missed"}), longest task ≤ 100 ms (${plugin.longestTaskMs <= 100 ? "met" : "missed"}), both better than naive (${plugin.firstLineMs < naive.firstLineMs && plugin.longestTaskMs < naive.longestTaskMs ? "yes" : "no"})`);
	} finally {
		await host.close();
	}
}

void main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
