import { launchHost, type Host } from "./support/host";

jest.setTimeout(120_000);

const HISTORY = ".obsidian/plugins/runnable-blocks/history.sqlite";

/**
 * Counts, on the page's main thread only, what preparing sql.js does: compiling WebAssembly and
 * decoding its 450 KB of base64. `remove` takes built-ins away first, as older Chromiums of
 * Obsidian lack them (workers get the same removal through their Blob source).
 */
function watchMainThread(remove: string[]): string {
	const removal = remove.map((p) => `delete ${p};`).join(" ");
	return `${removal}
	{ const B = Blob; globalThis.Blob = class extends B { constructor(parts, o) { super(o && o.type === "text/javascript" ? [${JSON.stringify(removal)}, ...parts] : parts, o); } }; }
	window.__sqlPrep = [];
	for (const k of ["compile", "instantiate", "compileStreaming", "instantiateStreaming"]) {
		const f = WebAssembly[k];
		WebAssembly[k] = function (...a) { window.__sqlPrep.push("WebAssembly." + k); return f.apply(this, a); };
	}
	const atob0 = window.atob;
	window.atob = (s) => { if (s.length > 100000) window.__sqlPrep.push("atob"); return atob0(s); };
	const from = Uint8Array.fromBase64;
	if (from) Uint8Array.fromBase64 = (s, o) => { if (s.length > 100000) window.__sqlPrep.push("fromBase64"); return from(s, o); };`;
}

describe.each([
	["this Chromium", []],
	["a Chromium without Uint8Array.fromBase64 and DecompressionStream", ["Uint8Array.fromBase64", "globalThis.DecompressionStream"]],
])("run history on %s", (_name, remove) => {
	let host: Host;
	beforeAll(async () => {
		host = await launchHost();
		await host.page.addInitScript(watchMainThread(remove));
		await host.page.reload();
		await host.api((h) => h.loadPlugin());
	});
	afterAll(async () => {
		await host?.close();
	});

	it("is written by the SQLite worker: the main thread never decodes or compiles sql.js", async () => {
		await host.api((h, md) => h.renderReading(md), `\`\`\`http alias=posted\nPOST ${host.url}/api/json\n\nx\n\`\`\``);
		const panel = host.page.locator(".rb-panel");
		await panel.locator(".rb-run").click();
		await panel.and(host.page.locator('[data-state="done"]')).waitFor();
		await host.page.waitForFunction((f) => (window as unknown as { __host: { binaries: Map<string, ArrayBuffer> } }).__host.binaries.has(f), HISTORY);
		const header = await host.page.evaluate((f) => new TextDecoder().decode((window as unknown as { __host: { binaries: Map<string, ArrayBuffer> } }).__host.binaries.get(f)?.slice(0, 15)), HISTORY);
		expect(header).toBe("SQLite format 3");
		await panel.locator(".rb-history-button").click();
		await panel.locator(".rb-history-row").first().waitFor();
		await expect(panel.locator(".rb-history-row").count()).resolves.toBe(1);
		await expect(host.page.evaluate(() => (window as unknown as { __sqlPrep: string[] }).__sqlPrep)).resolves.toEqual([]);
	});
});
