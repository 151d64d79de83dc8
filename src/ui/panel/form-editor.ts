import { Component, setIcon } from "obsidian";
import { fromForm, pickerMethods, toForm, type CanonicalRequest, type FormRow, type HttpMethod, type RequestForm } from "../../blocks";
import { t } from "../strings";

/**
 * Form mode: the request as a table of query parameters, headers and body (key/value rows for
 * form-urlencoded bodies, a text area otherwise). Every committed change (the input's `change`
 * event) writes canonical HTTP-message text back to the fence through `write`.
 */
export class FormEditor extends Component {
	private readonly el: HTMLElement;
	private form: RequestForm;
	private method: HttpMethod;

	constructor(
		parent: HTMLElement,
		private readonly request: CanonicalRequest,
		private readonly write: (req: CanonicalRequest) => void,
	) {
		super();
		this.el = parent.createDiv({ cls: "rb-form" });
		this.form = toForm(request);
		this.method = request.method;
	}

	override onload(): void {
		this.render();
	}

	override onunload(): void {
		this.el.remove();
	}

	private commit(): void {
		this.write({ ...fromForm(this.request, this.form), method: this.method });
	}

	private render(): void {
		this.el.empty();
		const line = this.el.createDiv({ cls: "rb-form-line" });
		const method = line.createEl("select", { cls: "dropdown rb-form-method", attr: { "aria-label": t("method") } });
		for (const m of pickerMethods(this.method)) method.createEl("option", { text: m, value: m });
		method.value = this.method;
		this.registerDomEvent(method, "change", () => {
			this.method = method.value as HttpMethod;
			this.commit();
		});
		const url = line.createEl("input", { cls: "rb-form-url", attr: { type: "text", value: this.form.base, "aria-label": "URL" } });
		url.value = this.form.base;
		this.registerDomEvent(url, "change", () => {
			this.form.base = url.value.trim();
			this.commit();
		});
		this.rows(t("queryParams"), this.form.query, "rb-form-query");
		this.rows(t("headers"), this.form.headers, "rb-form-headers");
		if (this.form.formBody) {
			this.rows(t("body"), this.form.formBody, "rb-form-body-rows");
		} else {
			this.el.createDiv({ cls: "rb-form-title", text: t("body") });
			const body = this.el.createEl("textarea", { cls: "rb-form-body", attr: { rows: "6", "aria-label": t("body") } });
			body.value = this.form.body;
			this.registerDomEvent(body, "change", () => {
				this.form.body = body.value;
				this.commit();
			});
		}
	}

	/** A key/value table; adding or removing a row re-renders and commits. */
	private rows(title: string, rows: FormRow[], cls: string): void {
		this.el.createDiv({ cls: "rb-form-title", text: title });
		const table = this.el.createEl("table", { cls: `rb-table ${cls}` });
		const body = table.createEl("tbody");
		rows.forEach((row, i) => {
			const tr = body.createEl("tr");
			const name = tr.createEl("td").createEl("input", { attr: { type: "text", "aria-label": t("name") } });
			name.value = row.name;
			const value = tr.createEl("td").createEl("input", { attr: { type: "text", "aria-label": t("value") } });
			value.value = row.value;
			const remove = tr.createEl("td").createEl("button", { cls: "rb-form-remove clickable-icon", attr: { "aria-label": t("removeRow") } });
			setIcon(remove, "x");
			this.registerDomEvent(name, "change", () => {
				row.name = name.value;
				this.commit();
			});
			this.registerDomEvent(value, "change", () => {
				row.value = value.value;
				row.bare = false;
				this.commit();
			});
			this.registerDomEvent(remove, "click", () => {
				rows.splice(i, 1);
				this.commit();
				this.render();
			});
		});
		const add = this.el.createEl("button", { cls: "rb-form-add", text: t("addRow") });
		this.registerDomEvent(add, "click", () => {
			rows.push({ name: "", value: "" });
			this.render();
		});
	}
}
