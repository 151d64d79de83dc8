import { Setting } from "obsidian";
import type { PatchValue } from "../settings/toml-patch";
import { notify } from "./notify";
import type { SettingsStore } from "./settings-store";

/**
 * One row of the settings page: its name and description, which Obsidian 1.13 indexes for its
 * settings search, and how its controls are drawn into the row it is given. The same rows draw
 * the page on older versions (drawRows). The row sets its own name and description, so it reads
 * the same whoever made it.
 */
export interface PageRow {
	name: string;
	desc?: string;
	/** More terms the search finds the row by. */
	aliases?: string[];
	render(setting: Setting): void;
}

/** A row named and described, whose controls `controls` adds (what it returns, often the Setting of a chain of adds, is not used). */
export function pageRow(name: string, desc: string | undefined, controls: (setting: Setting) => unknown): PageRow {
	return {
		name,
		...(desc === undefined ? {} : { desc }),
		render: (setting) => {
			setting.setName(name);
			if (desc !== undefined) setting.setDesc(desc);
			controls(setting);
		},
	};
}

/**
 * The row, found by Obsidian's settings search by `terms` too. The terms are the same in every
 * language: a user.toml key, an option's value, a chord, a protocol's name.
 */
export function alsoFoundBy(row: PageRow, terms: readonly string[]): PageRow {
	return terms.length > 0 ? { ...row, aliases: [...terms] } : row;
}

/** A section's heading row; `notes` (a short paragraph each, with its class) follow the description. */
export function headingRow(name: string, desc?: string, notes: ReadonlyArray<{ cls: string; text: string }> = []): PageRow {
	return pageRow(name, desc, (setting) => {
		setting.setHeading();
		for (const note of notes) setting.descEl.createDiv({ cls: note.cls, text: note.text });
	});
}

/** The rows drawn one after another into `el`, as the page is drawn where Obsidian does not draw it from its definitions. */
export function drawRows(el: HTMLElement, rows: readonly PageRow[]): void {
	for (const row of rows) row.render(new Setting(el));
}

/** One text row of a settings section (a connection here, a TLS server in tls-settings-section.ts) that edits one key of a user.toml table. */
export interface KeyField {
	name: string;
	desc?: string;
	/** The row's class (the section's indent). */
	cls: string;
	placeholder?: string;
	/** The key in the table; also the input's `data-key`. */
	key: string;
	value: string | undefined;
	/** The value to write for what was typed (trimmed, not empty), or the notice that refuses it. */
	read?: (text: string) => { ok: true; value: PatchValue } | { ok: false; notice: string };
}

/**
 * The row. It writes when the field is left (`change`), not per keystroke: each write is a patch
 * of user.toml. A cleared field removes the key, so the table goes without it.
 */
export function keyTextRow(store: SettingsStore, table: readonly string[], field: KeyField): PageRow {
	const at = [...table, field.key];
	return pageRow(field.name, field.desc, (row) =>
		row.setClass(field.cls).addText((x) => {
			if (field.placeholder !== undefined) x.setPlaceholder(field.placeholder);
			x.setValue(field.value ?? "");
			x.inputEl.setAttr("data-key", field.key);
			x.inputEl.addEventListener("change", () => {
				const typed = x.getValue().trim();
				if (typed === "") return void store.delete(at);
				const read = field.read ? field.read(typed) : ({ ok: true, value: typed } as const);
				if (!read.ok) return notify(read.notice);
				void store.set(at, read.value);
			});
		}),
	);
}
