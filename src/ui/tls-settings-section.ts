import type { App } from "obsidian";
import { isTlsServerName, type TlsSetting } from "../settings/tls-settings";
import { deleteTomlTable } from "../settings/toml-patch";
import { secretIdOf } from "./connection-settings";
import { notify } from "./notify";
import type { SettingsStore } from "./settings-store";
import { alsoFoundBy, headingRow, keyTextRow, pageRow, type PageRow } from "./settings-rows";
import { t } from "./strings";

/** The secret a server's key passphrase is kept under. */
export function tlsSecretId(server: string): string {
	return secretIdOf(`runnable-blocks-tls-${server}`);
}

/**
 * Adds `[tls."<server>"]` with `verify = true`, the table the fields below then fill. False (with
 * a notice) when the name is not a host or host:port, or the server has its table already.
 */
export async function addTlsServer(store: SettingsStore, server: string): Promise<boolean> {
	const name = server.trim().toLowerCase();
	if (!isTlsServerName(name)) {
		notify(t("badTlsServer"));
		return false;
	}
	if (name in store.settings.tls) {
		notify(t("tlsServerExists", { host: name }));
		return false;
	}
	return store.set(["tls", name, "verify"], true);
}

/**
 * The "TLS per server" section of the settings page (`[tls."host"]`, docs/settings.md): each
 * server's CA, verification and client certificate edited in place by comment-preserving patches
 * of user.toml; a key's passphrase kept in Obsidian's secret storage, user.toml naming the secret.
 */
export function tlsServerRows(app: App, store: SettingsStore): PageRow[] {
	const servers = Object.entries(store.settings.tls);
	const none = servers.length === 0 ? [{ cls: "rb-settings-none", text: t("noTlsServers") }] : [];
	let draft = "";
	return [
		alsoFoundBy(headingRow(t("tlsServers"), t("tlsServersDesc"), none), ["TLS", "mTLS", "HTTPS", "CA", "PEM"]),
		...servers.flatMap(([server, setting]) => rowsOfServer(app, store, server, setting)),
		pageRow(t("newTlsServer"), undefined, (row) =>
			row
				.setClass("rb-new-tls-server")
				.addText((x) => x.setPlaceholder(t("tlsServerPlaceholder")).onChange((v) => (draft = v)))
				.addButton((b) => b.setButtonText(t("add")).onClick(() => void addTlsServer(store, draft))),
		),
	];
}

function rowsOfServer(app: App, store: SettingsStore, server: string, s: TlsSetting): PageRow[] {
	const at = (key: string) => ["tls", server, key];
	const head = pageRow(server, undefined, (row) => {
		row.setClass("rb-tls-server");
		row.settingEl.setAttr("data-tls-server", server);
		row.addExtraButton((b) => b.setIcon("trash").setTooltip(t("deleteNamed", { name: server })).onClick(() => void store.patch((text) => deleteTomlTable(text, ["tls", server]))));
	});
	const file = (name: string, key: "ca" | "cert" | "key", desc: string) => keyTextRow(store, ["tls", server], { name, desc, cls: "rb-tls-field", placeholder: t("vaultPath"), key, value: s[key] });
	const verify = pageRow(t("tlsVerify"), t("tlsVerifyDesc"), (row) => row.setClass("rb-tls-field").addToggle((x) => x.setValue(s.verify).onChange((v) => void store.set(at("verify"), v))));
	const passphrase = s.passphrase;
	const secret = passphrase && "secret" in passphrase ? passphrase.secret : undefined;
	const passphraseRow = pageRow(t("tlsPassphrase"), secret ? t("secretStoredAs", { id: secret }) : t("passwordDesc"), (row) =>
		row.setClass("rb-tls-field").addText((x) => {
			x.inputEl.type = "password";
			x.inputEl.setAttr("data-key", "passphrase");
			x.inputEl.addEventListener("change", () => {
				if (x.getValue() === "") return void store.delete(at("passphrase"));
				const storage = (app as Partial<Pick<App, "secretStorage">>).secretStorage;
				if (!storage) return notify(t("noSecretStorage"));
				// One written in user.toml moves to the secret storage: the file then only names it.
				const id = secret ?? tlsSecretId(server);
				storage.setSecret(id, x.getValue());
				void store.set(at("passphrase"), { secret: id });
			});
		}),
	);
	return [head, file(t("tlsCa"), "ca", t("tlsCaDesc")), verify, file(t("tlsCert"), "cert", t("tlsCertDesc")), file(t("tlsKey"), "key", t("tlsKeyDesc")), passphraseRow];
}
