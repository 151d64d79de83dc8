import { setIcon } from "obsidian";
import type { JarCookie } from "../../runner/cookie-jar";
import { parseCookies } from "../../runner/response/cookies";
import { t } from "../strings";

/** Cookie attribute names, as RFC 6265 spells them (not translated). */
const COLUMNS = ["Name", "Value", "Domain", "Path", "Expires", "Max-Age", "Secure", "HttpOnly", "SameSite", "Partitioned"];

/** Every Set-Cookie of the response with all its attributes. */
export function renderCookies(parent: HTMLElement, headers: ReadonlyArray<readonly [string, string]>): void {
	const cookies = parseCookies(headers);
	if (cookies.length === 0) {
		parent.createDiv({ cls: "rb-muted", text: t("noCookies") });
		return;
	}
	const table = parent.createEl("table", { cls: "rb-table rb-cookies" });
	const head = table.createEl("thead").createEl("tr");
	for (const h of COLUMNS) head.createEl("th", { text: h });
	const body = table.createEl("tbody");
	for (const c of cookies) {
		const tr = body.createEl("tr");
		const text = (cell: string) => tr.createEl("td", { text: cell });
		// A flag attribute is a check icon labelled with the attribute's name, or an empty cell.
		const flag = (on: boolean | undefined, name: string) => {
			const td = tr.createEl("td", { cls: "rb-cookie-flag" });
			if (on) setIcon(td.createSpan({ cls: "rb-inline-icon", attr: { "aria-label": name, role: "img" } }), "check");
		};
		text(c.name);
		text(c.value);
		text(c.domain ?? "");
		text(c.path ?? "");
		text(c.expires ?? "");
		text(c.maxAge === undefined ? "" : String(c.maxAge));
		flag(c.secure, "Secure");
		flag(c.httpOnly, "HttpOnly");
		text(c.sameSite ?? "");
		flag(c.partitioned, "Partitioned");
	}
}

/** The environment's cookie jar: what later requests of the session will send. */
export function renderJar(parent: HTMLElement, jar: { environment: string; cookies: readonly JarCookie[] }): void {
	const section = parent.createDiv({ cls: "rb-cookie-jar" });
	section.createDiv({ cls: "rb-cookie-jar-title", text: jar.environment ? t("cookieJarTitle", { environment: jar.environment }) : t("cookieJarTitleNoEnvironment") });
	if (jar.cookies.length === 0) {
		section.createDiv({ cls: "rb-muted", text: t("cookieJarEmpty") });
		return;
	}
	const table = section.createEl("table", { cls: "rb-table rb-cookies" });
	const head = table.createEl("thead").createEl("tr");
	for (const h of ["Name", "Value", "Domain", "Path", "Expires", "Secure", "HttpOnly", "SameSite"]) head.createEl("th", { text: h });
	const body = table.createEl("tbody");
	for (const c of jar.cookies) {
		const tr = body.createEl("tr");
		for (const cell of [c.name, c.value, c.domain, c.path, c.expires ?? t("cookieSession"), c.secure ? "✓" : "", c.httpOnly ? "✓" : "", c.sameSite ?? ""]) tr.createEl("td", { text: cell });
	}
}
