import { t } from "../strings";

/** Headers sorted by name (stable for repeats), with a sticky filter box. */
export function renderHeaders(parent: HTMLElement, headers: ReadonlyArray<readonly [string, string]>): void {
	const wrap = parent.createDiv({ cls: "rb-headers" });
	const search = wrap.createEl("input", { cls: "rb-headers-search", attr: { type: "search", placeholder: t("searchHeaders"), "aria-label": t("searchHeaders") } });
	const table = wrap.createEl("table", { cls: "rb-table" });
	const body = table.createEl("tbody");
	const sorted = [...headers].map((h, i) => ({ h, i })).sort((a, b) => a.h[0].toLowerCase().localeCompare(b.h[0].toLowerCase()) || a.i - b.i);
	const rows = sorted.map(({ h: [name, value] }) => {
		const tr = body.createEl("tr");
		tr.createEl("th", { text: name });
		tr.createEl("td", { text: value });
		return { tr, text: `${name}: ${value}`.toLowerCase() };
	});
	search.addEventListener("input", () => {
		const q = search.value.trim().toLowerCase();
		for (const r of rows) r.tr.toggleClass("rb-hidden", q !== "" && !r.text.includes(q));
	});
}
