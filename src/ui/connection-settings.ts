import { Modal, Setting, type App } from "obsidian";
import { CONNECTION_PATTERN } from "../blocks";
import type { SchemaCache, SchemaState } from "../runner/db/schema-cache";
import { CONNECTION_TYPES, describeConnection, type Connection, type ConnectionType } from "../settings/connections";
import { deleteTomlTable, setTomlValue } from "../settings/toml-patch";
import { notify } from "./notify";
import type { SettingsStore } from "./settings-store";
import { alsoFoundBy, headingRow, keyTextRow, pageRow, type PageRow } from "./settings-rows";
import { t } from "./strings";

/** A text as one of Obsidian's secret ids: lowercase letters, digits, dashes. */
export function secretIdOf(text: string): string {
	return text.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-+/g, "-").replace(/-$/, "");
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
export function connectionRows(app: App, store: SettingsStore, schemas: SchemaCache): PageRow[] {
	const entries = Object.entries(store.settings.connections);
	const none = entries.length === 0 ? [{ cls: "rb-settings-none", text: t("noConnections") }] : [];
	const draft = { name: "", type: "sqlite" as ConnectionType, target: "" };
	return [
		alsoFoundBy(headingRow(t("connections"), t("connectionsDesc"), none), ["SQL", ...CONNECTION_TYPES]),
		...entries.flatMap(([name, c]) => rowsOfConnection(app, store, schemas, name, c)),
		pageRow(t("newConnection"), undefined, (row) =>
			row
				.setClass("rb-new-connection")
				.addText((x) => x.setPlaceholder(t("name")).onChange((v) => (draft.name = v.trim())))
				.addDropdown((d) => {
					for (const type of CONNECTION_TYPES) d.addOption(type, type);
					d.setValue(draft.type).onChange((v) => (draft.type = CONNECTION_TYPES.find((x) => x === v) ?? "sqlite"));
				})
				.addText((x) => x.setPlaceholder(t("pathOrHost")).onChange((v) => (draft.target = v.trim())))
				.addButton((b) => b.setButtonText(t("add")).onClick(() => void addConnection(store, draft))),
		),
	];
}

function rowsOfConnection(app: App, store: SettingsStore, schemas: SchemaCache, name: string, c: Connection): PageRow[] {
	const at = (key: string) => ["connections", name, key];
	const head = pageRow(name, `${describeConnection(c)}${c.readonly ? ` · ${t("readOnly")}` : ""}`, (row) => {
		row.setClass("rb-connection");
		row.settingEl.setAttr("data-connection", name);
		const result = row.descEl.createDiv({ cls: "rb-connection-test" });
		row.addButton((b) =>
			b.setButtonText(t("testConnection")).onClick(async () => {
				result.setText(t("connectionTesting"));
				result.removeClass("is-ok", "is-failed");
				const state = await schemas.refresh(name);
				result.setText(testResultText(state));
				result.addClass(state.kind === "done" ? "is-ok" : "is-failed");
			}),
		);
		row.addExtraButton((b) => b.setIcon("trash").setTooltip(t("deleteNamed", { name })).onClick(() => void store.patch((text) => deleteTomlTable(text, ["connections", name]))));
	});

	const positive = (key: string) => (typed: string) => {
		const n = Number(typed);
		return Number.isInteger(n) && n > 0 ? ({ ok: true, value: n } as const) : ({ ok: false, notice: t("badNumber", { key }) } as const);
	};
	const field = (label: string, key: string, value: string | undefined, numeric = false) =>
		keyTextRow(store, ["connections", name], { name: label, cls: "rb-connection-field", key, value, ...(numeric ? { read: positive(key) } : {}) });
	const password = (secret: string | undefined) =>
		pageRow(t("password"), secret ? t("secretStoredAs", { id: secret }) : t("passwordDesc"), (row) =>
			row.setClass("rb-connection-field").addText((x) => {
				x.inputEl.type = "password";
				x.inputEl.addEventListener("change", () => {
					const storage = (app as Partial<Pick<App, "secretStorage">>).secretStorage;
					if (!storage) return notify(t("noSecretStorage"));
					const id = secret ?? connectionSecretId(name);
					storage.setSecret(id, x.getValue());
					void store.set(at("password"), { secret: id });
				});
			}),
		);
	const fields =
		c.type === "sqlite"
			? [field(t("vaultPath"), "path", c.path)]
			: [
					field(t("host"), "host", c.host),
					field(t("port"), "port", c.port === undefined ? undefined : String(c.port), true),
					field(t("database"), "database", c.database),
					field(t("user"), "user", c.user),
					password(c.password?.secret),
				];
	const readOnly = pageRow(t("readOnlySetting"), t("readOnlyDesc"), (row) => row.setClass("rb-connection-field").addToggle((x) => x.setValue(c.readonly).onChange((v) => void store.set(at("readonly"), v))));
	return [alsoFoundBy(head, [c.type]), ...fields, readOnly];
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
