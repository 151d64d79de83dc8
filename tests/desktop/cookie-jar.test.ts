import { startTestServer, type TestServer } from "../support/servers";
import { CookieJars } from "../../src/runner/cookie-jar";
import { launchDesktopHost, panelOf, run, showTab, texts, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(30_000);

/**
 * The cookie jar in the desktop host (production main.js, node transport): a Set-Cookie is kept
 * for the environment, listed under the Cookies tab and sent by the next block (issue 14).
 */
let host: DesktopHost;
let server: TestServer;
let doc: Document;

beforeAll(async () => {
	server = await startTestServer();
	host = await launchDesktopHost();
	doc = host.document;
	await host.loadPlugin();
	host.page.renderReading(
		[`\`\`\`http alias=login\nGET ${server.url}/set-cookie\n\`\`\``, `\`\`\`http alias=next\nGET ${server.url}/json\n\`\`\``, `\`\`\`http alias=alone\n# @no-cookie-jar\nGET ${server.url}/json?alone\n\`\`\``].join("\n\n"),
		"api/cookies.md",
	);
});

afterAll(async () => {
	await host?.close();
	await server?.close();
});

it("keeps the response's cookie in the jar, lists it in the Cookies tab, and sends it on the next request", async () => {
	expect(await run(doc, "login")).toBe("done");
	const tab = showTab(doc, "login", "cookies");
	const jar = tab.querySelector(".rb-cookie-jar");
	expect(jar?.querySelector(".rb-cookie-jar-title")?.textContent).toBe("Cookie jar: sent on later requests");
	// The Secure cookie arrived over http: refused (RFC 6265bis), so only the session cookie is kept.
	expect(texts(jar as HTMLElement, "tbody tr td:first-child")).toEqual(["session"]);
	expect(await run(doc, "next")).toBe("done");
	expect(server.requests.find((r) => r.url === "/json")?.headers.find(([n]) => n.toLowerCase() === "cookie")?.[1]).toBe("session=abc");
	expect(await run(doc, "alone")).toBe("done");
	expect(server.requests.find((r) => r.url === "/json?alone")?.headers.some(([n]) => n.toLowerCase() === "cookie")).toBe(false);
	expect(panelOf(doc, "next")).toBeTruthy();
});

describe("[general] persist_cookies = true", () => {
	let persisted: DesktopHost;
	const JAR = ".obsidian/plugins/runnable-blocks/cookies.json";

	afterAll(async () => {
		await persisted?.close();
	});

	it("restores the jar from cookies.json at start and writes it back after a response sets a cookie", async () => {
		// A jar written by an earlier session (CookieJars.serialize of tough-cookie jars).
		const earlier = new CookieJars();
		earlier.for("").store(`${server.url}/`, ["kept=1; Path=/"]);
		persisted = await launchDesktopHost();
		await persisted.page.writeFile(".obsidian/plugins/runnable-blocks/user.toml", "[general]\npersist_cookies = true\n");
		await persisted.page.writeFile(JAR, earlier.serialize());
		await persisted.loadPlugin();
		const d = persisted.document;
		persisted.page.renderReading([`\`\`\`http alias=first\nGET ${server.url}/json?persisted\n\`\`\``, `\`\`\`http alias=login\nGET ${server.url}/set-cookie\n\`\`\``].join("\n\n"), "api/persist.md");
		await waitFor("the jar to be restored", () => (persisted.page.files.get(JAR) ? true : undefined));
		expect(await run(d, "first")).toBe("done");
		expect(server.requests.find((r) => r.url === "/json?persisted")?.headers.find(([n]) => n.toLowerCase() === "cookie")?.[1]).toBe("kept=1");
		expect(await run(d, "login")).toBe("done");
		const saved = await waitFor("cookies.json to hold the new cookie", () => {
			const text = persisted.page.files.get(JAR);
			return text?.includes('"session"') ? text : undefined;
		});
		const again = new CookieJars();
		expect(again.restore(saved)).toBeNull();
		expect(again.list("").map((c) => c.name).sort()).toEqual(["kept", "session"]);
	});
});
