import { startTestServer, type TestServer } from "../support/servers";
import { launchDesktopHost, panelOf, run, showTab, texts, type DesktopHost } from "./support/desktop-host";

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
