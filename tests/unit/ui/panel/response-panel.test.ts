/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import { Component } from "obsidian";
import { until } from "../../../support/block-host";
import type { HttpRun } from "../../../../src/runner/http/http-run";
import type { RunSnapshot } from "../../../../src/runner/result";
import { NoteSession } from "../../../../src/runner/session";
import type { StreamRun } from "../../../../src/runner/stream/stream-run";
import { FENCE_VIEWS } from "../../../../src/ui/block-renderers";
import type { FenceViews } from "../../../../src/ui/fence-views";
import { ResponsePanel, type HistoryRowView, type PanelActions, type PanelBlockInfo } from "../../../../src/ui/panel/response-panel";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());
afterEach(() => document.body.empty());

const KEY = "api.md#users";
const info: PanelBlockInfo = { method: "POST", editMode: "raw", display: "split", alias: "users", runKey: "Ctrl+Enter", exportFormats: ["curl", "fetch", "python", "httpie", "http"] };
const head = (status: number, headers: Array<[string, string]> = [["Content-Type", "application/json"]]) => ({ status, statusText: status === 200 ? "OK" : "Not Found", httpVersion: "1.1", headers, url: "http://127.0.0.1/users", redirects: 0 });
const done = (over: Partial<HttpRun> = {}): RunSnapshot => ({ kind: "http", state: "done", startedAt: 1000, head: head(200), body: new TextEncoder().encode('{"id":7}'), receivedBytes: 8, timing: { total: 42 }, transport: "node", ...over });

/** Actions that record what the panel asked for, one line each. */
function recording(over: Partial<PanelActions> = {}) {
	const calls: string[] = [];
	let history: HistoryRowView[] = [];
	const actions: PanelActions = {
		run: (force) => calls.push(`run ${force}`),
		cancel: () => calls.push("cancel"),
		clearCache: () => calls.push("clearCache"),
		setMethod: (m) => calls.push(`setMethod ${m}`),
		setEditMode: (m) => calls.push(`setEditMode ${m}`),
		exportAs: (f) => calls.push(`exportAs ${f}`),
		sendAsCurl: () => calls.push("sendAsCurl"),
		listHistory: () => Promise.resolve(history),
		saveBody: (s) => calls.push(`saveBody ${s.body?.byteLength}`),
		compareWithPrevious: () => calls.push("compareWithPrevious"),
		compareWith: () => calls.push("compareWith"),
		...over,
	};
	return { actions, calls, setHistory: (rows: HistoryRowView[]) => (history = rows) };
}

function mount(session = new NoteSession(), over: Partial<PanelActions> = {}, blockInfo = info, views: Pick<FenceViews, "runViewOf"> = FENCE_VIEWS) {
	const parent = document.body.createDiv();
	const rec = recording(over);
	const panel = new ResponsePanel(parent, session, KEY, blockInfo, rec.actions, views);
	panel.load();
	const q = <T extends HTMLElement = HTMLElement>(sel: string) => panel.el.querySelector<T>(sel);
	return {
		...rec,
		session,
		panel,
		q,
		badges: () => Array.from(panel.el.querySelectorAll(".rb-badge")).map((b) => b.textContent),
		content: () => q(".rb-tab-content")?.textContent ?? "",
		tab: (id: string) => q(`[data-tab="${id}"]`)?.click(),
		activeTab: () => q(".rb-tab.is-active")?.dataset.tab,
		runLabel: () => q(".rb-run-label")?.textContent,
		/** Opens the gear menu and clicks the item titled `title`; the titles it offered. */
		menu: (title?: string) => {
			q(".rb-gear")?.click();
			const items = Array.from(document.querySelectorAll(".menu .menu-item"));
			const titles = items.map((i) => i.querySelector(".menu-item-title")?.textContent);
			if (title !== undefined) (items[titles.indexOf(title)] as HTMLElement | undefined)?.click();
			document.querySelector(".menu")?.remove();
			return titles;
		},
	};
}

describe("the response panel", () => {
	it("before any run: an idle badge, Run with its icon, and the body tab saying how to run", () => {
		const p = mount();
		expect(p.badges()).toEqual(["idle"]);
		expect(p.runLabel()).toBe("Run");
		expect(p.q(".rb-run svg")?.getAttribute("class")).toBe("svg-icon lucide-play");
		expect(p.activeTab()).toBe("body");
		expect(p.content()).toBe("Not run yet. Press run or Ctrl+Enter.");
		expect(p.q<HTMLSelectElement>(".rb-method-picker")?.value).toBe("POST");
		expect(p.q(".rb-method-picker")?.classList.contains("rb-method-post")).toBe(true);
	});

	it("while a request is in flight, Run becomes Stop and stops it; Run runs it otherwise", () => {
		const p = mount();
		p.q(".rb-run")?.click();
		p.session.update(KEY, { kind: "http", state: "running", startedAt: 1000, receivedBytes: 0 });
		expect(p.runLabel()).toBe("Stop");
		expect(p.q(".rb-run")?.classList.contains("rb-running")).toBe(true);
		expect(p.content()).toBe("Waiting for the response…");
		p.q(".rb-run")?.click();
		p.session.update(KEY, done());
		expect(p.runLabel()).toBe("Run");
		p.q(".rb-run")?.click();
		expect(p.calls).toEqual(["run false", "cancel", "run false"]);
	});

	it("shows a finished run's state, status, time, size and transport, and the body", () => {
		const p = mount();
		p.session.update(KEY, done());
		expect(p.badges()).toEqual(["done", "200 OK", "42 ms", "8 B", "node"]);
		expect(p.q(".rb-status")?.classList.contains("rb-status-2xx")).toBe(true);
		expect(p.panel.el.dataset.state).toBe("done");
		expect(p.panel.el.dataset.startedAt).toBe("1000");
		expect(p.content()).toContain('"id": 7');
	});

	it("says how old a cached response is", () => {
		const p = mount();
		p.session.update(KEY, done({ state: "cached", startedAt: 65_000, cachedAt: 5_000 }));
		expect(p.badges()).toContain("(cached, 1 min ago)");
	});

	it("shows a failure without response as an error box, its detail too, on every tab but Raw and Timing", () => {
		const p = mount();
		p.session.update(KEY, { kind: "http", state: "failed", startedAt: 1, receivedBytes: 0, timing: { total: 3 }, error: { code: "connect_failed", message: "Failed to connect", detail: "ECONNREFUSED 127.0.0.1:1" } });
		expect(p.badges()).toEqual(["failed", "3 ms", "Failed to connect"]);
		expect(p.q(".rb-badge.rb-error")?.getAttribute("title")).toBe("ECONNREFUSED 127.0.0.1:1");
		expect(p.content()).toBe("Failed to connectECONNREFUSED 127.0.0.1:1");
		p.tab("headers");
		expect(p.content()).toBe("Failed to connectECONNREFUSED 127.0.0.1:1");
		p.tab("timing");
		expect(p.q(".rb-tab-content .rb-timing-value")?.textContent).toBe("3 ms");
	});

	it("shows headers, cookies and the jar on their tabs, response text as text", () => {
		const evil = "<img src=x onerror=alert(1)>";
		const p = mount(new NoteSession(), { cookieJar: () => ({ environment: "dev", cookies: [] }) });
		p.session.update(KEY, done({ head: head(404, [["X-Evil", evil], ["Set-Cookie", `sid=${evil}`]]) }));
		expect(p.q(".rb-status")?.classList.contains("rb-status-4xx")).toBe(true);
		p.tab("headers");
		expect(p.activeTab()).toBe("headers");
		expect(p.content()).toContain(`X-Evil${evil}`);
		p.tab("cookies");
		expect(p.q(".rb-cookies td:nth-child(2)")?.textContent).toBe(evil);
		expect(p.content()).toContain("Cookie jar (dev): sent on later requests");
		expect(p.panel.el.querySelector("img")).toBeNull();
	});

	it("keeps the tab a block shows when its panel is drawn again (an edit, a switch of view)", () => {
		const session = new NoteSession();
		session.update(KEY, done());
		const first = mount(session);
		first.tab("timing");
		first.panel.unload();
		expect(document.body.querySelector(".rb-panel")).toBeNull();
		const again = mount(session);
		expect(again.activeTab()).toBe("timing");
		expect(mount(new NoteSession()).activeTab()).toBe("body");
	});

	it("stops following the session once unloaded", () => {
		const p = mount();
		p.panel.unload();
		p.session.update(KEY, done());
		expect(p.badges()).toEqual(["idle"]);
	});

	it("shows the Auth tab only for a run whose request carried an OAuth token", () => {
		const p = mount();
		p.session.update(KEY, done());
		expect(p.q('[data-tab="auth"]')?.classList.contains("rb-hidden")).toBe(true);
		p.session.update(KEY, done({ startedAt: 2000, authUsed: [{ environment: "dev", name: "kc", grant: "client_credentials" }] }));
		expect(p.q('[data-tab="auth"]')?.classList.contains("rb-hidden")).toBe(false);
	});

	it("asks to change the method and to switch to form mode, the toggle naming the mode it switches to", () => {
		const p = mount();
		const picker = p.q<HTMLSelectElement>(".rb-method-picker") as HTMLSelectElement;
		picker.value = "PUT";
		picker.dispatchEvent(new Event("change"));
		expect(p.q(".rb-mode-toggle")?.textContent).toBe("Form");
		p.q(".rb-mode-toggle")?.click();
		const form = mount(new NoteSession(), {}, { ...info, editMode: "form" });
		expect(form.q(".rb-mode-toggle")?.textContent).toBe("Raw");
		form.q(".rb-mode-toggle")?.click();
		expect([...p.calls, ...form.calls]).toEqual(["setMethod PUT", "setEditMode form", "setEditMode raw"]);
	});

	it("offers in its menu what applies to the run shown, each item reaching its action", () => {
		const p = mount(new NoteSession(), { clearCookies: () => p.calls.push("clearCookies"), pinResponse: (s) => p.calls.push(`pin ${s.head?.status}`), compareWithPinned: () => p.calls.push("compareWithPinned") });
		const before = p.menu();
		expect(before).toEqual(["Force re-run", "Clear cache", "Clear cookies", "Copy as curl", "Copy as fetch", "Copy as python", "Copy as httpie", "Copy as .http", "Send as cURL (save to file)"]);
		p.session.update(KEY, done());
		expect(p.menu()).toEqual([...before, "Save body to file", "Compare with previous run", "Compare with…", "Pin response", "Compare with pinned"]);
		for (const title of ["Force re-run", "Clear cache", "Clear cookies", "Copy as .http", "Send as cURL (save to file)", "Save body to file", "Compare with previous run", "Compare with…", "Pin response", "Compare with pinned"]) p.menu(title);
		expect(p.calls).toEqual(["run true", "clearCache", "clearCookies", "exportAs http", "sendAsCurl", "saveBody 8", "compareWithPrevious", "compareWith", "pin 200", "compareWithPinned"]);
	});

	it("offers the export formats of the block's kind, and Send as cURL only with curl among them", () => {
		const ws = mount(new NoteSession(), {}, { ...info, method: null, exportFormats: ["websocat", "ws", "http"] });
		expect(ws.menu().filter((title) => /^(Copy as|Send as)/.test(title ?? ""))).toEqual(["Copy as websocat", "Copy as ws", "Copy as .http"]);
		ws.menu("Copy as websocat");
		expect(ws.calls).toEqual(["exportAs websocat"]);
	});

	it("offers no comparison while a run is in flight", () => {
		const p = mount();
		p.session.update(KEY, { kind: "http", state: "streaming", startedAt: 1, head: head(200), receivedBytes: 3 });
		expect(p.menu()).not.toContain("Compare with previous run");
	});

	it("lists the block's last runs in the History popover, and closes it on a second click", async () => {
		const p = mount();
		p.setHistory([{ timestamp: 0, status: 200, outcome: "cached", durationMs: 12, requestBytes: 10, responseBytes: 2048 }]);
		p.q(".rb-history-button")?.click();
		await until("the runs are listed", () => p.q(".rb-history-row") !== null);
		const row = p.q(".rb-history-row");
		expect(Array.from(row?.querySelectorAll("td") ?? []).slice(1).map((td) => td.textContent)).toEqual(["200", "from cache", "12 ms", "10 B2.0 KiB"]);
		expect(p.q(".rb-history-size")?.getAttribute("aria-label")).toBe("Sent 10 B");
		p.q(".rb-history-button")?.click();
		expect(p.q(".rb-history")).toBeNull();
	});

	it("says so when no run is recorded", async () => {
		const p = mount();
		p.q(".rb-history-button")?.click();
		await until("the popover says it", () => p.q(".rb-history .rb-muted") !== null);
		expect(p.q(".rb-history")?.textContent).toBe("Last runsNo runs recorded yet.");
	});
});

describe("a run in its kind's own view", () => {
	const counts = { received: 0, sent: 0, receivedBytes: 0, sentBytes: 0 };
	const sse = (over: Partial<StreamRun> = {}): RunSnapshot => ({ kind: "sse", state: "streaming", startedAt: 5, head: head(200, [["Content-Type", "text/event-stream"]]), messages: [], counts, ...over });
	const websocket = (over: Partial<StreamRun> = {}): RunSnapshot => ({ kind: "websocket", state: "streaming", startedAt: 6, head: head(101, []), messages: [], counts, ...over });
	const shown = (p: ReturnType<typeof mount>) => ({
		streams: Array.from(p.panel.el.querySelectorAll<HTMLElement>(".rb-stream")).map((s) => s.dataset.protocol),
		tabs: !p.q(".rb-tabs")?.classList.contains("rb-hidden") && !p.q(".rb-tab-content")?.classList.contains("rb-hidden"),
	});

	it("shows a stream's run in the stream panel its kind's renderer lends, in place of the tabs, the toolbar kept", () => {
		const p = mount();
		p.session.update(KEY, sse());
		expect(shown(p)).toEqual({ streams: ["sse"], tabs: false });
		expect(p.runLabel()).toBe("Stop");
		p.session.update(KEY, websocket());
		expect(shown(p)).toEqual({ streams: ["websocket"], tabs: false });
	});

	it("shows a refused upgrade, and any run of a kind without a view, in the tabs", () => {
		const p = mount();
		p.session.update(KEY, sse());
		p.session.update(KEY, websocket({ state: "done", head: head(404), body: new TextEncoder().encode("no such socket") }));
		expect(shown(p)).toEqual({ streams: [], tabs: true });
		p.session.update(KEY, sse());
		p.session.update(KEY, done());
		expect(shown(p)).toEqual({ streams: [], tabs: true });
		expect(p.content()).toContain('"id"');
	});

	it("mounts a kind's view once per run of that kind and lets it follow the session; a view that does not show a run leaves it to the tabs", () => {
		const mounted: string[] = [];
		const views: Pick<FenceViews, "runViewOf"> = {
			runViewOf: (kind) =>
				kind === "sse"
					? { shows: (run): run is RunSnapshot => run.state !== "failed", mount: (parent, _session, key, run) => (mounted.push(`${key} ${run.state}`), new Component()) }
					: undefined,
		};
		const p = mount(new NoteSession(), {}, info, views);
		p.session.update(KEY, sse({ state: "running", head: undefined }));
		p.session.update(KEY, sse());
		p.session.update(KEY, sse({ messages: [{ direction: "received", atMs: 1, data: "a", binary: false, size: 1 }], counts: { ...counts, received: 1 } }));
		expect(mounted).toEqual([`${KEY} running`]);
		expect(shown(p).tabs).toBe(false);
		p.session.update(KEY, sse({ state: "failed", error: { code: "connect_failed", message: "Failed to connect" } }));
		expect(shown(p).tabs).toBe(true);
		expect(p.content()).toBe("Failed to connect");
		p.session.update(KEY, sse({ startedAt: 9 }));
		expect(mounted).toEqual([`${KEY} running`, `${KEY} streaming`]);
	});
});

