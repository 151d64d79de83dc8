import type { Page } from "playwright-core";

/**
 * Has Playwright compile its own injected scripts in the page (about 330 KB, one per JavaScript
 * world) before a window is measured. Its first locator and its first waitForFunction do it
 * otherwise: 35-55 ms tasks on the main thread, which a trace found inside the measured windows
 * of bench/first-run and bench/first-use, charged to the plugin.
 */
export async function compilePlaywrightScripts(page: Page): Promise<void> {
	await page.locator("body").waitFor();
	await page.waitForFunction(() => true);
}
