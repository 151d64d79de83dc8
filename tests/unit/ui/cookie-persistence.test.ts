/** @jest-environment jsdom */
import { setImmediate } from "node:timers";
import type { App } from "obsidian";
import { notices } from "../../e2e/host/obsidian-shim";
import { CookieJars } from "../../../src/runner/cookie-jar";
import { persistCookies } from "../../../src/ui/cookie-persistence";
import { loadedStore, memoryAdapter, PLUGIN_DIR, USER_TOML } from "../../support/settings-vault";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

const COOKIES = `${PLUGIN_DIR}/cookies.json`;
const ON = "[general]\npersist_cookies = true\n";

/** The debounce runs on jest's clock; promises already resolved settle by Node's next turn (node:timers, not the page's faked ones). */
beforeEach(() => {
	jest.useFakeTimers();
	notices.length = 0;
});
afterEach(() => jest.useRealTimers());
const settled = () => new Promise((r) => setImmediate(r));

/** A jar holding one cookie of the dev environment, as text `serialize()` writes. */
function savedJar(): string {
	const jars = new CookieJars();
	jars.for("dev").store("http://127.0.0.1/", ["session=abc; Path=/"]);
	return jars.serialize();
}

async function setUp(toml: string, files: Record<string, string> = {}) {
	const adapter = memoryAdapter({ [USER_TOML]: toml, ...files });
	const app = { vault: { adapter } } as unknown as App;
	const store = await loadedStore(app);
	const jars = new CookieJars();
	const stop = persistCookies(app, jars, store, PLUGIN_DIR);
	await settled();
	const setCookie = (text: string) => jars.for("dev").store("http://127.0.0.1/", [text]);
	const written = () => adapter.files.get(COOKIES);
	return { adapter, jars, stop, setCookie, written };
}
const names = (jars: CookieJars) => jars.list("dev").map((c) => `${c.name}=${c.value}`);

describe("persistCookies with persist_cookies on", () => {
	it("restores the jars from cookies.json when the plugin starts", async () => {
		const s = await setUp(ON, { [COOKIES]: savedJar() });
		expect(names(s.jars)).toEqual(["session=abc"]);
	});

	it("writes the jars once the changes pause, not on each change", async () => {
		const s = await setUp(ON);
		s.setCookie("a=1");
		jest.advanceTimersByTime(400);
		s.setCookie("b=2");
		jest.advanceTimersByTime(400);
		expect(s.written()).toBeUndefined();
		jest.advanceTimersByTime(100);
		await settled();
		expect(s.written()).toBe(s.jars.serialize());
		const again = new CookieJars();
		again.restore(s.written() ?? "");
		expect(names(again)).toEqual(["a=1", "b=2"]);
	});

	it("writes a pending change at once when stopped, and nothing after", async () => {
		const s = await setUp(ON);
		s.setCookie("a=1");
		s.stop();
		await settled();
		expect(s.written()).toBe(s.jars.serialize());
		s.adapter.files.delete(COOKIES);
		s.setCookie("b=2");
		jest.runOnlyPendingTimers();
		await settled();
		expect(s.written()).toBeUndefined();
	});

	it("says which file could not be read and why, and starts with empty jars", async () => {
		const s = await setUp(ON, { [COOKIES]: "{not json" });
		expect(s.jars.list("dev")).toEqual([]);
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatch(new RegExp(`^Runnable Blocks: Could not read the cookie jar ${COOKIES}: .*JSON`));
	});

	it("says why the jar could not be saved", async () => {
		const s = await setUp(ON);
		s.adapter.refusing.add(COOKIES);
		s.setCookie("a=1");
		jest.runOnlyPendingTimers();
		await settled();
		expect(notices).toEqual(["Runnable Blocks: Could not save the cookie jar: disk full"]);
	});
});

describe("persistCookies with persist_cookies off (the default)", () => {
	it("neither reads a cookies.json left from before nor writes one", async () => {
		const s = await setUp("", { [COOKIES]: savedJar() });
		expect(s.jars.list("dev")).toEqual([]);
		s.adapter.files.delete(COOKIES);
		s.setCookie("a=1");
		jest.runOnlyPendingTimers();
		s.stop();
		await settled();
		expect(s.written()).toBeUndefined();
	});
});
