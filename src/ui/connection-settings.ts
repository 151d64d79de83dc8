import { Modal, Setting, type App } from "obsidian";
import { CONNECTION_PATTERN } from "../blocks";
import type { SchemaCache, SchemaState } from "../runner/db/schema-cache";
import { CONNECTION_TYPES, describeConnection, type Connection, type ConnectionType } from "../settings/connections";
import { deleteTomlTable, setTomlValue, type PatchValue } from "../settings/toml-patch";
import { notify } from "./notify";
import type { SettingsStore } from "./settings-store";
import { t } from "./strings";

/** A text as one of Obsidian's secret ids: lowercase letters, digits, dashes. */
export function secretIdOf(text: string): string {
	return text.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-+/g, "-").replace(/-$/, "");
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
 * Adds the row. It writes when the field is left (`change`), not per keystroke: each write is a
 * patch of user.toml. A cleared field removes the key, so the table goes without it.
 */
export function keyTextField(el: HTMLElement, store: SettingsStore, table: readonly string[], field: KeyField): Setting {
	const at = [...table, field.key];
	const row = new Setting(el).setName(field.name).setClass(field.cls);
	if (field.desc !== undefined) row.setDesc(field.desc);
	return row.addText((x) => {
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
	});
}

/** The secret a connection's password is kept under. */
export function connectionSecretId(name: string): string {
	return secretIdOf(`runnable-blocks-connection-${name}`);
}

/**
 * Adds `[connections.<name>]`: a SQLite file by its vault path, or a server by its host; read-only
 * until the user says otherwise. One comment-preserving patch; false (with a notice) when refused.
 */
export async function addConnection(store: SettingsStore, draft: { name: string; type: ConnectionType; target: string }): Promise<boolean> {
	const { name, type, target } = draft;
	if (!CONNECTION_PATTERN.test(name) || !target) {
		notify(t("badConnection"));
		return false;
	}
	if (name in store.settings.connections) {
		notify(t("connectionExists", { name }));
		return false;
	}
	const at = (key: string) => ["connections", name, key];
	return store.patch((text) => setTomlValue(setTomlValue(setTomlValue(text, at("type"), type), at(type === "sqlite" ? "path" : "host"), target), at("readonly"), true));
}

/** A schema read as the one line "Test connection" shows. */
export function testResultText(state: SchemaState): string {
	if (state.kind === "done") {
		const tables = state.tables.filter((x) => x.kind === "table").length;
		return t("connectionOk", { tables, views: state.tables.length - tables });
	}
	if (state.kind === "loading") return t("connectionTesting");
	return t("connectionFailed", { reason: `${state.message}${state.detail ? ` (${state.detail})` : ""}` });
}

/**
 * The Connections section of the settings page: each connection's keys edited in place
 * (comment-preserving patches of user.toml), its password kept in Obsidian's secret storage, and
 * "Test connection", which reads the schema through the connection's driver (and so refreshes
 * what completion knows).
 */
export function renderConnections(el: HTMLElement, app: App, store: SettingsStore, schemas: SchemaCache): void {
	new Setting(el).setName(t("connections")).setHeading().setDesc(t("connectionsDesc"));
	const entries = Object.entries(store.settings.connections);
	if (entries.length === 0) el.createEl("p", { cls: "setting-item-description", text: t("noConnections") });
	for (const [name, c] of entries) connectionRows(el, app, store, schemas, name, c);
	const draft = { name: "", type: "sqlite" as ConnectionType, target: "" };
	new Setting(el)
		.setName(t("newConnection"))
		.setClass("rb-new-connection")
		.addText((x) => x.setPlaceholder(t("name")).onChange((v) => (draft.name = v.trim())))
		.addDropdown((d) => {
			for (const type of CONNECTION_TYPES) d.addOption(type, type);
			d.setValue(draft.type).onChange((v) => (draft.type = CONNECTION_TYPES.find((x) => x === v) ?? "sqlite"));
		})
		.addText((x) => x.setPlaceholder(t("pathOrHost")).onChange((v) => (draft.target = v.trim())))
		.addButton((b) => b.setButtonText(t("add")).onClick(() => void addConnection(store, draft)));
}

function connectionRows(el: HTMLElement, app: App, store: SettingsStore, schemas: SchemaCache, name: string, c: Connection): void {
	const at = (key: string) => ["connections", name, key];
	const head = new Setting(el)
		.setName(name)
		.setClass("rb-connection")
		.setDesc(`${describeConnection(c)}${c.readonly ? ` · ${t("readOnly")}` : ""}`);
	head.settingEl.setAttr("data-connection", name);
	const result = head.descEl.createDiv({ cls: "rb-connection-test" });
	head.addButton((b) =>
		b.setButtonText(t("testConnection")).onClick(async () => {
			result.setText(t("connectionTesting"));
			result.removeClass("is-ok", "is-failed");
			const state = await schemas.refresh(name);
			result.setText(testResultText(state));
			result.addClass(state.kind === "done" ? "is-ok" : "is-failed");
		}),
	);
	head.addExtraButton((b) => b.setIcon("trash").setTooltip(t("deleteNamed", { name })).onClick(() => void store.patch((text) => deleteTomlTable(text, ["connections", name]))));

	const positive = (key: string) => (typed: string) => {
		const n = Number(typed);
		return Number.isInteger(n) && n > 0 ? ({ ok: true, value: n } as const) : ({ ok: false, notice: t("badNumber", { key }) } as const);
	};
	const field = (label: string, key: string, value: string | undefined, numeric = false) =>
		keyTextField(el, store, ["connections", name], { name: label, cls: "rb-connection-field", key, value, ...(numeric ? { read: positive(key) } : {}) });
	if (c.type === "sqlite") field(t("vaultPath"), "path", c.path);
	else {
		field(t("host"), "host", c.host);
		field(t("port"), "port", c.port === undefined ? undefined : String(c.port), true);
		field(t("database"), "database", c.database);
		field(t("user"), "user", c.user);
		new Setting(el)
			.setName(t("password"))
			.setClass("rb-connection-field")
			.setDesc(c.password ? t("secretStoredAs", { id: c.password.secret }) : t("passwordDesc"))
			.addText((x) => {
				x.inputEl.type = "password";
				x.inputEl.addEventListener("change", () => {
					const storage = (app as Partial<Pick<App, "secretStorage">>).secretStorage;
					if (!storage) return notify(t("noSecretStorage"));
					const id = c.password?.secret ?? connectionSecretId(name);
					storage.setSecret(id, x.getValue());
					void store.set(at("password"), { secret: id });
				});
			});
	}
	new Setting(el)
		.setName(t("readOnlySetting"))
		.setClass("rb-connection-field")
		.setDesc(t("readOnlyDesc"))
		.addToggle((x) => x.setValue(c.readonly).onChange((v) => void store.set(at("readonly"), v)));
}

/** "New connection…" of /DB Query: a SQLite file of the vault by name and path; resolves with the name, or null when cancelled. */
export class NewConnectionModal extends Modal {
	private readonly draft = { name: "", type: "sqlite" as ConnectionType, target: "" };
	private done = false;

	constructor(
		app: App,
		private readonly store: SettingsStore,
		private readonly resolve: (name: string | null) => void,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle(t("newConnection"));
		const el = this.contentEl;
		new Setting(el).setName(t("name")).addText((x) => x.onChange((v) => (this.draft.name = v.trim())));
		new Setting(el).setName(t("connectionType")).addDropdown((d) => {
			for (const type of CONNECTION_TYPES) d.addOption(type, type);
			d.setValue("sqlite").onChange((v) => (this.draft.type = CONNECTION_TYPES.find((x) => x === v) ?? "sqlite"));
		});
		new Setting(el).setName(t("pathOrHost")).addText((x) => x.onChange((v) => (this.draft.target = v.trim())));
		new Setting(el).addButton((b) =>
			b
				.setButtonText(t("add"))
				.setCta()
				.onClick(async () => {
					if (!(await addConnection(this.store, this.draft))) return;
					this.done = true;
					this.close();
					this.resolve(this.draft.name);
				}),
		);
	}

	override onClose(): void {
		this.contentEl.empty();
		if (!this.done) this.resolve(null);
	}
}
