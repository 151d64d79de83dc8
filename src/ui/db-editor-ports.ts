import type { App } from "obsidian";
import { tableLabel } from "../blocks";
import type { SchemaCache } from "../runner/db/schema-cache";
import { withBuiltInConnections } from "../settings/connections";
import type * as ConnectionSettings from "./connection-settings";
import { notify } from "./notify";
import type { SettingsStore } from "./settings-store";
import type { SlashDbPort } from "./suggest/slash-suggest";
import { t } from "./strings";

/** /DB Query's port: connections from user.toml, the first table from the cached schema, "New connection…" as a modal. */
export function slashDb(app: App, store: SettingsStore, schemas: SchemaCache): SlashDbPort {
	return {
		connections: () => Object.keys(withBuiltInConnections(store.settings.connections)),
		firstTable: async (name) => {
			const state = await schemas.get(name);
			const first = state.kind === "done" ? (state.tables.find((x) => x.kind === "table") ?? state.tables[0]) : undefined;
			return first ? tableLabel(first) : undefined;
		},
		newConnection: () =>
			new Promise((resolve) => {
				// The connection form is required when first opened: main.js carries it as a text module.
				// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
				const { NewConnectionModal } = require("./connection-settings") as typeof ConnectionSettings;
				new NewConnectionModal(app, store, resolve).open();
			}),
	};
}

/** The refresh-db-schemas command: every connection's schema read again; failures said by name. */
export async function refreshSchemas(schemas: SchemaCache): Promise<void> {
	const names = Object.keys(schemas.connections());
	const states = await Promise.all(names.map((n) => schemas.refresh(n)));
	const failed = names.flatMap((n, i) => {
		const s = states[i];
		return s.kind === "failed" ? [`${n}: ${s.message}${s.detail ? ` (${s.detail})` : ""}`] : [];
	});
	notify(failed.length ? failed.join("\n") : t("schemasRefreshed", { names: names.join(", ") || t("none") }));
}
