/** @jest-environment jsdom */
import type { JarCookie } from "../../../../src/runner/cookie-jar";
import { renderCookies, renderJar } from "../../../../src/ui/panel/cookies-view";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());

/** Each body row: a cell's text, or the label of its check icon. */
function rowsOf(parent: HTMLElement): string[][] {
	return Array.from(parent.querySelectorAll("tbody tr")).map((tr) =>
		Array.from(tr.querySelectorAll("td")).map((td) => (td.querySelector("[aria-label]") ? `✓${td.querySelector("[aria-label]")?.getAttribute("aria-label")}` : (td.textContent ?? ""))),
	);
}
const headerOf = (parent: HTMLElement) => Array.from(parent.querySelectorAll("thead th")).map((th) => th.textContent);

describe("the response's cookies", () => {
	it("lists every Set-Cookie with all its attributes, flags as labelled check icons", () => {
		const parent = createDiv();
		renderCookies(parent, [
			["Content-Type", "text/plain"],
			["Set-Cookie", "sid=abc%20def; Domain=example.com; Path=/app; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Max-Age=3600; Secure; HttpOnly; SameSite=Strict; Partitioned"],
			["set-cookie", "theme=dark"],
		]);
		expect(headerOf(parent)).toEqual(["Name", "Value", "Domain", "Path", "Expires", "Max-Age", "Secure", "HttpOnly", "SameSite", "Partitioned"]);
		expect(rowsOf(parent)).toEqual([
			["sid", "abc%20def", "example.com", "/app", "Wed, 21 Oct 2037 07:28:00 GMT", "3600", "✓Secure", "✓HttpOnly", "Strict", "✓Partitioned"],
			["theme", "dark", "", "", "", "", "", "", "", ""],
		]);
		expect(parent.querySelectorAll(".rb-cookie-flag svg.lucide-check")).toHaveLength(3);
	});

	it("says so when the response set none", () => {
		const parent = createDiv();
		renderCookies(parent, [["Content-Type", "text/plain"]]);
		expect(parent.querySelector("table")).toBeNull();
		expect(parent.textContent).toBe("No cookies were set.");
	});

	it("shows a cookie that looks like markup as text, creating no element", () => {
		const parent = createDiv();
		renderCookies(parent, [["Set-Cookie", "<img src=x onerror=alert(1)>=<b>bold</b>; Path=/<script>"]]);
		expect(parent.querySelector("img, b, script")).toBeNull();
		expect(rowsOf(parent)[0].slice(0, 4)).toEqual(["<img src", "x onerror=alert(1)>=<b>bold</b>", "", "/<script>"]);
	});
});

describe("the environment's cookie jar", () => {
	const jarCookie = (over: Partial<JarCookie>): JarCookie => ({ name: "sid", value: "1", domain: "127.0.0.1", path: "/", expires: null, secure: false, httpOnly: false, sameSite: null, ...over });

	it("lists what later requests will send, a cookie without expiry as a session cookie", () => {
		const parent = createDiv();
		renderJar(parent, { environment: "dev", cookies: [jarCookie({}), jarCookie({ name: "pref", value: "x", expires: "2037-10-21T07:28:00.000Z", secure: true, httpOnly: true, sameSite: "lax" })] });
		expect(parent.querySelector(".rb-cookie-jar-title")?.textContent).toBe("Cookie jar (dev): sent on later requests");
		expect(rowsOf(parent)).toEqual([
			["sid", "1", "127.0.0.1", "/", "session", "", "", ""],
			["pref", "x", "127.0.0.1", "/", "2037-10-21T07:28:00.000Z", "✓", "✓", "lax"],
		]);
	});

	it("names no environment when none is active, and says when the jar is empty", () => {
		const parent = createDiv();
		renderJar(parent, { environment: "", cookies: [] });
		expect(parent.querySelector(".rb-cookie-jar-title")?.textContent).toBe("Cookie jar: sent on later requests");
		expect(parent.querySelector(".rb-muted")?.textContent).toBe("The jar is empty.");
		expect(parent.querySelector("table")).toBeNull();
	});

	it("shows a jar cookie that looks like markup as text", () => {
		const parent = createDiv();
		renderJar(parent, { environment: "<i>dev</i>", cookies: [jarCookie({ value: "<img src=x onerror=alert(1)>" })] });
		expect(parent.querySelector("img, i")).toBeNull();
		expect(rowsOf(parent)[0][1]).toBe("<img src=x onerror=alert(1)>");
		expect(parent.querySelector(".rb-cookie-jar-title")?.textContent).toContain("<i>dev</i>");
	});
});
