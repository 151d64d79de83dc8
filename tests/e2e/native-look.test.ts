import type { Locator } from "playwright-core";
import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(60_000);

let host: Host;

beforeAll(async () => {
	host = await launchPluginHost();
});

afterAll(async () => {
	await host?.close();
});

const fence = (alias: string, request: string, info = "") => `\`\`\`http alias=${alias}${info}\n${request}\n\`\`\``;
const blockOf = (alias: string) => host.page.locator(".rb-block", { has: host.page.locator(".rb-alias", { hasText: `alias ${alias}` }) });
const panelOf = (alias: string) => blockOf(alias).locator(".rb-panel");
const FINAL = ["done", "cached", "failed", "cancelled"];

/** Clicks Run and waits for the panel to reach an end state (a failed preparation included). */
async function run(panel: Locator): Promise<void> {
	const ended = (await panel.elementHandle())?.evaluate(
		(el, final) =>
			new Promise<void>((resolve) => {
				new MutationObserver((_records, observer) => {
					if (!final.includes(el.getAttribute("data-state") ?? "")) return;
					observer.disconnect();
					resolve();
				}).observe(el, { attributes: true, attributeFilter: ["data-state"] });
			}),
		FINAL,
	);
	await panel.locator(".rb-run").click();
	await ended;
}

/** Unicode pictographs and symbols used as icons (arrows, check marks, gears, media keys…). */
const GLYPHS = /[\u2190-\u21ff\u2300-\u23ff\u2460-\u27bf\u2900-\u2bff\u00d7\u2022\u22ef\u{1f300}-\u{1faff}]/u;

describe("icons come from Obsidian's setIcon (Lucide), with labels", () => {
	it("toolbar, history and cookie flags draw svg.svg-icon elements, and no text glyph stands in for an icon", async () => {
		await host.api((h, md) => h.renderReading(md), fence("icons", `POST ${host.url}/api/json\n\nx`));
		const panel = panelOf("icons");
		await expect(panel.locator(".rb-run svg.svg-icon.lucide-play").count()).resolves.toBe(1);
		await expect(panel.locator(".rb-gear svg.svg-icon.lucide-settings").count()).resolves.toBe(1);
		await expect(panel.locator(".rb-history-button svg.svg-icon.lucide-history").count()).resolves.toBe(1);
		await expect(panel.locator(".rb-mode-toggle svg.svg-icon.lucide-list").count()).resolves.toBe(1);
		await run(panel);
		await panel.locator(".rb-history-button").click();
		await panel.locator(".rb-history-row").first().waitFor();
		await expect(panel.locator(".rb-history-row svg.lucide-arrow-up").count()).resolves.toBeGreaterThan(0);
		// Every button has a name a screen reader can say: its text or its aria-label.
		for (const button of await panel.locator("button").all()) {
			const name = ((await button.getAttribute("aria-label")) ?? (await button.textContent()) ?? "").trim();
			expect(name).not.toBe("");
		}
		expect(await panel.locator(".rb-toolbar, .rb-tabs, .rb-history").allTextContents()).not.toContainEqual(expect.stringMatching(GLYPHS));
	});

	it("Run turns into Stop with a square icon while the request is in flight", async () => {
		await host.api((h, md) => h.renderReading(md), fence("slow", `GET ${host.url}/api/json?slow`));
		const panel = panelOf("slow");
		host.holdAnswers();
		try {
			await panel.locator(".rb-run").click();
			await panel.locator(".rb-run svg.lucide-square").waitFor();
			await expect(panel.locator(".rb-run").textContent()).resolves.toBe("Stop");
		} finally {
			host.releaseAnswers();
		}
		await panel.locator(".rb-run svg.lucide-play").waitFor();
		await expect(panel.locator(".rb-run").textContent()).resolves.toBe("Run");
	});
});

/** Widths of the panels and of what holds them, and whether anything sticks out sideways. */
const measureLayout = (containerSel: string) =>
	host.page.evaluate((sel) => {
		const container = document.querySelector(sel) as HTMLElement;
		const panels = [...container.querySelectorAll<HTMLElement>(".rb-panel")];
		return {
			container: container.clientWidth,
			containerScroll: container.scrollWidth,
			panels: panels.map((p) => ({ width: Math.round(p.getBoundingClientRect().width), overflow: p.scrollWidth - p.clientWidth })),
			errorRight: Math.max(...[...container.querySelectorAll(".rb-error")].map((e) => e.getBoundingClientRect().right)),
			panelRight: Math.max(...panels.map((p) => p.getBoundingClientRect().right)),
		};
	}, containerSel);

describe("layout", () => {
	const longName = "x".repeat(400);


	it("a very long unbroken error wraps inside its panel: every panel stays as wide as the note (Reading view)", async () => {
		const md = [fence("ok", `GET ${host.url}/api/json`), fence("long", `GET ${host.url}/{{${longName}}}`)].join("\n\n");
		await host.api((h, m) => h.renderReading(m), md);
		await run(panelOf("long"));
		await expect(panelOf("long").locator(".rb-error").textContent()).resolves.toContain(longName);
		const m = await measureLayout("#reading");
		expect(m.containerScroll).toBe(m.container);
		for (const p of m.panels) expect(p).toEqual({ width: m.container - 2, overflow: 0 });
		expect(m.errorRight).toBeLessThanOrEqual(m.panelRight);
	});

	it("shows the request once in the panel, on the Raw tab; the block above it is the note's own text", async () => {
		await host.api((h, md) => h.renderReading(md), fence("once", `GET ${host.url}/api/book\nAccept: application/json`));
		const panel = panelOf("once");
		await run(panel);
		const requestLine = `GET ${host.url}/api/book`;
		const seen: Record<string, number> = {};
		for (const tab of ["body", "headers", "cookies", "timing", "raw"]) {
			await panel.locator(`.rb-tab[data-tab="${tab}"]`).click();
			const text = (await panel.innerText()).replace(/\u00a0/g, " ");
			seen[tab] = text.split(`${host.url}/api/book`).length - 1;
		}
		expect(seen).toEqual({ body: 0, headers: 0, cookies: 0, timing: 0, raw: 1 });
		await expect(panel.locator(".rb-vtext-line").first().textContent()).resolves.toBe(`${requestLine} HTTP/1.1`);
		// Outside the panel: the block text once, its method coloured like the editor's, and no summary line repeating it.
		const outside = await blockOf("once").evaluate((el) => [...el.children].filter((c) => !c.classList.contains("rb-panel")).map((c) => (c as HTMLElement).innerText).join("\n"));
		expect(outside.split(`${host.url}/api/book`).length - 1).toBe(1);
		await expect(blockOf("once").locator(".rb-source .rb-method-get").textContent()).resolves.toBe("GET");
	});
});

describe("JSON bodies are highlighted by the Lezer JSON grammar", () => {
	it("wraps tokens in tok-* spans coloured by the theme's code colours, text only", async () => {
		await host.api((h, md) => h.renderReading(md), fence("json", `GET ${host.url}/api/book`));
		const panel = panelOf("json");
		await run(panel);
		const tokens = (cls: string) => panel.locator(`.rb-lang-json .${cls}`).allTextContents();
		await expect(tokens("tok-propertyName")).resolves.toEqual(['"id"', '"title"', '"author"', '"name"', '"born"', '"tags"', '"price"', '"available"', '"isbn"']);
		await expect(tokens("tok-string")).resolves.toEqual(['"Dune"', '"Frank Herbert"', '"sf"', '"classic"']);
		await expect(tokens("tok-number")).resolves.toEqual(["42", "1920", "9.99"]);
		await expect(tokens("tok-bool")).resolves.toEqual(["true"]);
		await expect(tokens("tok-keyword")).resolves.toEqual(["null"]);
		// The lines read exactly as the pretty-printed text: highlighting adds no character.
		await expect(panel.locator(".rb-vtext-line").nth(2).textContent()).resolves.toBe('  "title": "Dune",');
		const colours = await panel.evaluate((el) => {
			const css = getComputedStyle(document.body);
			const probe = document.body.createDiv();
			const resolve = (v: string) => {
				probe.style.color = css.getPropertyValue(v);
				return getComputedStyle(probe).color;
			};
			const colourOf = (sel: string) => getComputedStyle(el.querySelector(sel) as Element).color;
			const out = {
				string: [colourOf(".tok-string"), resolve("--code-string")],
				property: [colourOf(".tok-propertyName"), resolve("--code-property")],
				number: [colourOf(".tok-number"), resolve("--code-value")],
			};
			probe.remove();
			return out;
		});
		for (const [actual, expected] of Object.values(colours)) expect(actual).toBe(expected);
		expect(new Set(Object.values(colours).map(([c]) => c)).size).toBe(3);
	});

	it("a 50 MB body highlights only the lines on screen", async () => {
		await host.api((h, md) => h.renderReading(md), fence("big", `GET ${host.url}/api/big.json`, " timeout=120000"));
		const panel = panelOf("big");
		await run(panel);
		await panel.locator(".rb-lang-json .tok-propertyName").first().waitFor();
		const lines = await panel.locator(".rb-vtext-line").count();
		expect(lines).toBeLessThan(200);
		await expect(panel.locator(".rb-lang-json .tok-propertyName").first().textContent()).resolves.toBe('"count"');
	});
});

/** WCAG 2 relative luminance and contrast ratio of sRGB colours. */
function luminance([r, g, b]: number[]): number {
	const f = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
	return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}
function contrast(a: number[], b: number[]): number {
	const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
	return (hi + 0.05) / (lo + 0.05);
}

/**
 * Text and background of a chip from its screenshot's pixels (decoded by Chromium): the
 * background is the most frequent colour, the text the pixel that differs from it most.
 */
async function chipColours(chip: Locator): Promise<{ text: number[]; background: number[] }> {
	const png = await chip.screenshot({ animations: "disabled", caret: "hide" });
	const data = await host.page.evaluate(async (b64) => {
		const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
		const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
		const ctx = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D;
		ctx.drawImage(bitmap, 0, 0);
		return Array.from(ctx.getImageData(0, 0, bitmap.width, bitmap.height).data);
	}, png.toString("base64"));
	const counts = new Map<string, number>();
	const pixels: number[][] = [];
	for (let i = 0; i < data.length; i += 4) {
		const px = [data[i], data[i + 1], data[i + 2]];
		pixels.push(px);
		counts.set(px.join(), (counts.get(px.join()) ?? 0) + 1);
	}
	const background = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0].split(",").map(Number);
	const text = pixels.reduce((best, px) => (contrast(px, background) > contrast(best, background) ? px : best), background);
	return { text, background };
}

describe("chips are legible in both themes (WCAG contrast ≥ 4.5:1, measured on screenshots)", () => {
	const chipNote = (url: string) =>
		[
			fence("c-get", `GET ${url}/api/book`),
			fence("c-cached", `GET ${url}/api/book?c=1`),
			fence("c-post", `POST ${url}/api/status/404\n\nx`),
			fence("c-delete", `DELETE ${url}/api/status/500`),
			fence("c-put", `PUT ${url}/api/status/304`),
			fence("c-patch", `PATCH ${url}/{{nowhere}}`),
			fence("c-options", `OPTIONS ${url}/api/book`),
			// A long timeout: measuring every chip under load can outlast the default 30 s before Stop.
			fence("c-head", `HEAD ${url}/api/slow`, " timeout=600000"),
		].join("\n\n");
	const figures: string[] = [];
	const failures: string[] = [];

	afterAll(() => console.log(`chip contrast (text on background, from pixels):\n${figures.join("\n")}`));

	/** Every chip in `scope`: the method pickers and each badge. */
	async function measureChips(theme: "light" | "dark", scope: Locator): Promise<void> {
		await host.api((h, t) => h.setTheme(t), theme);
		const chips = scope.locator(".rb-badge, .rb-method-picker");
		const n = await chips.count();
		expect(n).toBeGreaterThan(2);
		for (let i = 0; i < n; i++) {
			const chip = chips.nth(i);
			const name = `${(await chip.getAttribute("class")) ?? ""} "${(await chip.evaluate((el) => (el instanceof HTMLSelectElement ? el.value : el.textContent))) ?? ""}"`;
			const { text, background } = await chipColours(chip);
			const ratio = contrast(text, background);
			const line = `${theme}\t${ratio.toFixed(2)}\t${name}\trgb(${text.join()}) on rgb(${background.join()})`;
			figures.push(line);
			if (ratio < 4.5) failures.push(line);
		}
	}

	it("every chip of every outcome, light and dark", async () => {
		await host.api((h) => h.setTheme("light"));
		await host.api((h, md) => h.renderReading(md), chipNote(host.url));
		for (const alias of ["c-get", "c-cached", "c-cached", "c-post", "c-delete", "c-put", "c-patch", "c-options"]) await run(panelOf(alias));
		await expect(panelOf("c-cached").locator(".rb-cached").count()).resolves.toBe(1);
		// Cancelled: Stop while the answer is held.
		host.holdAnswers();
		await panelOf("c-head").locator(".rb-run").click();
		await panelOf("c-head").locator(".rb-state-running").waitFor();
		const everyPanel = host.page.locator("#reading");
		await measureChips("light", everyPanel);
		await measureChips("dark", everyPanel);
		await panelOf("c-head").locator(".rb-run").click();
		host.releaseAnswers();
		await panelOf("c-head").locator(".rb-state-cancelled").waitFor();
		for (const cls of ["rb-status-2xx", "rb-status-3xx", "rb-status-4xx", "rb-status-5xx", "rb-state-failed", "rb-error", "rb-cached", "rb-transport", "rb-time", "rb-size"]) {
			await expect(host.page.locator(`.rb-panel .${cls}`).count()).resolves.toBeGreaterThan(0);
		}
		await measureChips("light", panelOf("c-head"));
		await measureChips("dark", panelOf("c-head"));
		await host.api((h) => h.setTheme("light"));
		expect(failures).toEqual([]);
	}, 240_000);
});

// Last: once the editor holds a note, Reading-view runs of that note go through it.
describe("layout in the editor", () => {
	const longName = "x".repeat(400);

	it("a very long unbroken error in Source mode: the panel widgets keep the editor's width, nothing scrolls sideways", async () => {
		const md = [fence("ok", `GET ${host.url}/api/json`), fence("long", `GET ${host.url}/{{${longName}}}`)].join("\n\n");
		await host.api((h, m) => h.openEditor(m), md);
		const panel = host.page.locator(".rb-editor-panel .rb-panel").nth(1);
		await run(panel);
		const m = await measureLayout(".cm-content");
		const editor = await host.page.evaluate(() => {
			const scroller = document.querySelector(".cm-scroller") as HTMLElement;
			return { width: scroller.clientWidth, scroll: scroller.scrollWidth };
		});
		expect(editor.scroll).toBe(editor.width);
		const widths = new Set(m.panels.map((p) => p.width));
		expect(widths.size).toBe(1);
		expect(m.panels[0].width).toBeLessThanOrEqual(m.container);
		for (const p of m.panels) expect(p.overflow).toBe(0);
		expect(m.errorRight).toBeLessThanOrEqual(m.panelRight);
	});
});
