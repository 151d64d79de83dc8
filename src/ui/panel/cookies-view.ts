import { parseCookies } from "../../runner/response/cookies";
import { t } from "../strings";

/** Every Set-Cookie of the response with all its attributes. */
export function renderCookies(parent: HTMLElement, headers: ReadonlyArray<readonly [string, string]>): void {
	const cookies = parseCookies(headers);
	if (cookies.length === 0) {
		parent.createDiv({ cls: "rb-muted", text: t("noCookies") });
		return;
	}
	const table = parent.createEl("table", { cls: "rb-table rb-cookies" });
	const head = table.createEl("thead").createEl("tr");
	for (const h of ["Name", "Value", "Domain", "Path", "Expires", "Max-Age", "Secure", "HttpOnly", "SameSite", "Partitioned"]) head.createEl("th", { text: h });
	const body = table.createEl("tbody");
	for (const c of cookies) {
		const tr = body.createEl("tr");
		const cells = [c.name, c.value, c.domain ?? "", c.path ?? "", c.expires ?? "", c.maxAge === undefined ? "" : String(c.maxAge), c.secure ? "✓" : "", c.httpOnly ? "✓" : "", c.sameSite ?? "", c.partitioned ? "✓" : ""];
		for (const cell of cells) tr.createEl("td", { text: cell });
	}
}
