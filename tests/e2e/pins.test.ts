/**
 * Pinned responses in the Chromium host (issue 28): the production main.js pins a response
 * under its block through vault.process, a block with the `pin` token rewrites its pin on each
 * run, Compare with pinned opens the diff view, and a 10 MB response pins to its cut.
 */
import { launchHost, type Host } from "./support/host";
import type { HostApi } from "./support/host-api";

jest.setTimeout(120_000);

let host: Host;
type Api = HostApi & { notices: string[]; files: Map<string, string> };

const noteText = () => host.api((h) => (h as Api).files.get("note.md") ?? "");
const panelOf = (alias: string) => host.page.locator("#reading .rb-block", { has: host.page.locator(".rb-alias", { hasText: `alias ${alias}` }) }).locator(".rb-panel");

/** Clicks Run on the block and waits for a new finished run. */
async function run(alias: string): Promise<void> {
	const panel = panelOf(alias);
	const before = (await panel.getAttribute("data-started-at")) ?? "";
	await panel.locator(".rb-run").click();
	await host.page.waitForFunction(
		([a, b]) => {
			const el = [...document.querySelectorAll("#reading .rb-block")].find((x) => x.querySelector(".rb-alias")?.textContent === `alias ${a}`)?.querySelector(".rb-panel") as HTMLElement | undefined;
			return el?.dataset.state === "done" && el.dataset.startedAt !== b;
		},
		[alias, before] as const,
	);
}

async function menu(alias: string, item: string): Promise<void> {
	await panelOf(alias).locator(".rb-gear").click();
	await host.page.locator(".menu-item", { hasText: item }).click();
}

beforeAll(async () => {
	host = await launchHost();
	await host.api((h) => h.loadPlugin());
});

afterAll(async () => {
	await host?.close();
});

describe("pinned responses", () => {
	it("Pin response writes the response under its block, and the pin renders as a read-only panel", async () => {
		const note = ["# Pins", "", "```http alias=book", `GET ${host.url}/api/book`, "```", "", "after", ""].join("\n");
		await host.api((h, md) => h.renderReading(md), note);
		await run("book");
		await menu("book", "Pin response");
		await host.until((h) => ((h as Api).files.get("note.md") ?? "").includes("http-response"));
		const text = await noteText();
		expect(text.startsWith(["# Pins", "", "```http alias=book", `GET ${host.url}/api/book`, "```", "```http-response alias=book", "HTTP/1.1 200"].join("\n"))).toBe(true);
		expect(text).toContain('content-type: application/json; charset=utf-8\n\n{\n  "id": 42,');
		expect(text.endsWith("}\n```\n\nafter\n")).toBe(true);
		await host.api((h, md) => h.renderReading(md), text);
		const pinned = host.page.locator("#reading .rb-pinned-response");
		await expect(pinned.locator(".rb-alias").innerText()).resolves.toBe("Pinned response of book");
		await expect(pinned.locator(".rb-status").innerText()).resolves.toMatch(/^HTTP\/1\.1 200/);
		await expect(pinned.locator(".rb-pinned-body").innerText()).resolves.toContain('"author": {');
		await expect(pinned.locator("input, textarea, [contenteditable=true]").count()).resolves.toBe(0);
	});

	it("a block with the pin token rewrites its one pin on each run, and Compare with pinned shows the change", async () => {
		const note = ["# Counter", "", "```http alias=counter pin", `GET ${host.url}/api/counter`, "```", "", "end", ""].join("\n");
		await host.api((h, md) => h.renderReading(md), note);
		await run("counter");
		await host.until((h) => ((h as Api).files.get("note.md") ?? "").includes("http-response"));
		const first = await noteText();
		const runOf = (t: string) => Number(/"run": (\d+)/.exec(t)?.[1]);
		const n = runOf(first);
		await run("counter");
		await host.until((h, before) => ((h as Api).files.get("note.md") ?? "") !== before, first);
		const second = await noteText();
		expect(runOf(second)).toBe(n + 1);
		expect(second.match(/http-response/g)).toHaveLength(1);
		expect(second.replace(/```http-response[\s\S]*?\n```\n/, "")).toBe(note);
		// Without the token, the next run leaves the pin as it is; Compare with pinned shows what changed (keys sorted).
		await host.api((h, md) => h.renderReading(md), ["# Counter", "", "```http alias=counter", `GET ${host.url}/api/counter`, "```", second.slice(second.indexOf("```http-response"))].join("\n"));
		await run("counter");
		await menu("counter", "Compare with pinned");
		const modal = host.page.locator(".rb-compare-modal");
		await expect(modal.locator(".modal-title").innerText()).resolves.toBe("counter: pinned and last run");
		await expect(modal.locator(".cm-merge-a .cm-changedLine").allInnerTexts()).resolves.toEqual([`  "run": ${n + 1},`, `  "stock": ${10 - n - 1},`]);
		await expect(modal.locator(".cm-merge-b .cm-changedLine").allInnerTexts()).resolves.toEqual([`  "run": ${n + 2},`, `  "stock": ${10 - n - 2},`]);
		await host.page.keyboard.press("Escape");
	});

	// How long the page is held while pinning is measured by bench/pin (tests assert no wall clock).
	it("pins a 10 MB response to its 64 KiB cut", async () => {
		const note = ["```http alias=big", `GET ${host.url}/api/ten-mb.json`, "```", ""].join("\n");
		await host.api((h, md) => h.renderReading(md), note);
		await run("big");
		await menu("big", "Pin response");
		await host.until((h) => ((h as Api).files.get("note.md") ?? "").includes("[cut at"));
		const text = await noteText();
		const marker = /\n\[cut at (\d+) of (\d+) bytes\]\n```\n$/.exec(text);
		expect(marker).not.toBeNull();
		expect(Number(marker![1])).toBe(65536);
		expect(Number(marker![2])).toBeGreaterThanOrEqual(10_000_000);
		expect(text.length).toBeLessThan(70_000);
	});
});
