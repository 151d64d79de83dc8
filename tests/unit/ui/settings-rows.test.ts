/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import { Setting, type App } from "obsidian";
import { installDomHelpers, notices } from "../../e2e/host/obsidian-shim";
import { alsoFoundBy, drawRows, headingRow, keyTextRow, pageRow } from "../../../src/ui/settings-rows";
import { changedText, loadedStore, memoryAdapter, typeInto, USER_TOML } from "../../support/settings-vault";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

installDomHelpers();

const texts = (el: HTMLElement, selector: string) => [...el.querySelectorAll(selector)].map((e) => e.textContent);

beforeEach(() => {
	notices.length = 0;
	document.body.empty();
});

describe("pageRow", () => {
	it("names and describes the row it is given, whatever it held, then adds its controls", () => {
		const el = document.body.createDiv();
		const setting = new Setting(el).setName("Stale").setDesc("Stale too");
		const row = pageRow("Default timeout", "In milliseconds.", (s) => s.addText((x) => x.setValue("5000")));
		row.render(setting);
		expect(texts(el, ".setting-item-name")).toEqual(["Default timeout"]);
		expect(texts(el, ".setting-item-description")).toEqual(["In milliseconds."]);
		expect(el.querySelector("input")?.value).toBe("5000");
		expect(row).toMatchObject({ name: "Default timeout", desc: "In milliseconds." });
	});

	it("gives no description where it has none", () => {
		expect(Object.keys(pageRow("Add", undefined, () => undefined))).toEqual(["name", "render"]);
	});
});

describe("alsoFoundBy", () => {
	it("gives the row its search terms, and none where there are none", () => {
		const row = pageRow("Transport", "How requests are sent.", () => undefined);
		expect(alsoFoundBy(row, ["transport", "fetch"]).aliases).toEqual(["transport", "fetch"]);
		expect(alsoFoundBy(row, [])).not.toHaveProperty("aliases");
	});
});

describe("headingRow and drawRows", () => {
	it("draws the rows in order, a heading with its notes under its description", () => {
		const el = document.body.createDiv();
		drawRows(el, [headingRow("Connections", "Database files.", [{ cls: "rb-settings-none", text: "No connections yet." }]), pageRow("New connection", undefined, () => undefined)]);
		expect(texts(el, ".setting-item-name")).toEqual(["Connections", "New connection"]);
		expect(el.querySelector(".setting-item")?.classList.contains("setting-item-heading")).toBe(true);
		expect(texts(el, ".setting-item-heading .setting-item-description > *")).toEqual(["No connections yet."]);
		expect(el.querySelector(".setting-item-heading .setting-item-description")?.firstChild?.textContent).toBe("Database files.");
	});
});

describe("keyTextRow", () => {
	async function row(read?: Parameters<typeof keyTextRow>[2]["read"]) {
		const adapter = memoryAdapter({ [USER_TOML]: '# mine\n[connections.pg]\ntype = "postgres"\nhost = "db.local"\n' });
		const store = await loadedStore({ vault: { adapter } } as unknown as App);
		const el = document.body.createDiv();
		drawRows(el, [keyTextRow(store, ["connections", "pg"], { name: "Port", cls: "rb-connection-field", key: "port", value: undefined, ...(read ? { read } : {}) })]);
		const input = el.querySelector<HTMLInputElement>('input[data-key="port"]')!;
		return { store, el, input, toml: () => adapter.files.get(USER_TOML) ?? "" };
	}

	it("writes what was typed when the field is left, and a cleared field removes the key", async () => {
		const r = await row((typed) => ({ ok: true, value: Number(typed) }));
		expect(r.el.querySelector(".rb-connection-field")).not.toBeNull();
		const before = r.toml();
		typeInto(r.input, " 5433 ", "change");
		const written = await changedText(r.toml, before);
		expect(written).toContain("port = 5433");
		expect(written).toMatch(/^# mine\n/);
		typeInto(r.input, "", "change");
		expect(await changedText(r.toml, written)).not.toContain("port");
	});

	it("writes nothing per keystroke, and refuses with its notice what `read` refuses", async () => {
		const r = await row(() => ({ ok: false, notice: "port must be a positive whole number." }));
		const before = r.toml();
		typeInto(r.input, "80");
		typeInto(r.input, "80a", "change");
		expect(notices).toEqual(["Runnable Blocks: port must be a positive whole number."]);
		expect(r.toml()).toBe(before);
	});
});
