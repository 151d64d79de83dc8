import { setIcon } from "obsidian";
import type { AssertionResult } from "../../blocks/assertions";
import type { HttpView } from "../../runner/http/http-run";
import { t } from "../strings";

/** The `??` results a finished run carries (a BlockResult; a snapshot in flight has none). */
function assertionsOf(s: HttpView): readonly AssertionResult[] | undefined {
	return (s as { assertions?: AssertionResult[] }).assertions;
}

/**
 * The Tests tab: one row per `??` assertion with pass/fail, the line, the text as written, the
 * actual value and why it failed. All text goes in as text: assertion values come from the response.
 */
export function renderTests(parent: HTMLElement, s: HttpView): void {
	const results = assertionsOf(s);
	if (!results || results.length === 0) {
		parent.createDiv({ cls: "rb-muted", text: s.head ? t("noAssertions") : t("assertionsNeedResponse") });
		return;
	}
	const failed = results.filter((r) => !r.ok).length;
	parent.createDiv({ cls: `rb-tests-summary ${failed ? "rb-tests-failed" : "rb-tests-passed"}`, text: t("assertionsSummary", { passed: String(results.length - failed), total: String(results.length) }) });
	const table = parent.createEl("table", { cls: "rb-table rb-tests" });
	const head = table.createEl("thead").createEl("tr");
	for (const h of [t("testResult"), t("testLine"), t("testAssertion"), t("testActual")]) head.createEl("th", { text: h });
	const body = table.createEl("tbody");
	for (const r of results) {
		const tr = body.createEl("tr", { cls: r.ok ? "rb-test-pass" : "rb-test-fail", attr: { "data-line": String(r.line) } });
		const state = tr.createEl("td", { cls: "rb-test-state" });
		const label = r.ok ? t("testPassed") : t("testFailed");
		setIcon(state.createSpan({ cls: "rb-inline-icon", attr: { "aria-label": label, role: "img" } }), r.ok ? "check" : "x");
		state.createSpan({ cls: "rb-test-label", text: label });
		tr.createEl("td", { text: String(r.line) });
		const text = tr.createEl("td");
		text.createEl("code", { text: `?? ${r.text}` });
		if (r.message) text.createDiv({ cls: "rb-muted rb-test-message", text: r.message });
		tr.createEl("td", { cls: "rb-test-actual", text: r.actual ?? "—" });
	}
}
