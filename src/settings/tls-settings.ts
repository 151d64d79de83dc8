/**
 * `[tls."host"]` / `[tls."host:port"]` of user.toml (docs/settings.md): how the node transport
 * talks TLS to one server. A CA to trust besides the bundled ones, no verification at all (a
 * self-signed development server), a client certificate for mutual TLS. Paths are vault paths
 * (absolute ones too in the CLI); the key's passphrase is a string or a secret.
 */
export interface TlsSetting {
	ca?: string;
	cert?: string;
	key?: string;
	/** Written in user.toml, or a secret's id (as a variable's value is). */
	passphrase?: { value: string } | { secret: string };
	/** False accepts any certificate the server shows. Default true. */
	verify: boolean;
}

type Report = (key: string, message: string) => void;

const show = (v: unknown) => JSON.stringify(v instanceof Date ? v.toISOString() : v);
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/** Whether a name can head a `[tls."…"]` table: a host or host:port, without a scheme or a path. */
export const isTlsServerName = (name: string): boolean => HOST.test(name);

/**
 * Reads one server's table into a setting: an invalid value is an error for its key (the server
 * keeps the others), an unknown key a warning; a name that is not `host` or `host:port` makes no
 * setting. `error`/`warn` take the key inside the table ("" for the table itself).
 */
export function parseTlsTable(server: string, table: Record<string, unknown>, error: Report, warn: Report): TlsSetting | null {
	if (!isTlsServerName(server)) {
		error("", `"${server}" is not a host or host:port (write [tls."api.example.com"] or [tls."localhost:8443"], without https://)`);
		return null;
	}
	const out: TlsSetting = { verify: true };
	for (const [k, v] of Object.entries(table)) {
		if (k === "ca" || k === "cert" || k === "key") {
			if (typeof v === "string" && v.trim() !== "") out[k] = v.trim();
			else error(k, `must be the path of a PEM file in the vault (got ${show(v)})`);
		} else if (k === "verify") {
			if (typeof v === "boolean") out.verify = v;
			else error(k, `must be true or false (got ${show(v)})`);
		} else if (k === "passphrase") {
			if (typeof v === "string") out.passphrase = { value: v };
			else if (typeof v === "object" && v !== null && typeof (v as { secret?: unknown }).secret === "string") out.passphrase = { secret: (v as { secret: string }).secret };
			else error(k, `must be a string or { secret = "id" } (got ${show(v)})`);
		} else {
			warn(k, `unknown key "${k}" is kept but ignored (known: ca, verify, cert, key, passphrase)`);
		}
	}
	if ((out.cert === undefined) !== (out.key === undefined)) error(out.cert === undefined ? "key" : "cert", "a client certificate needs both cert and key");
	return out;
}

/** The setting of the server a URL names: `host:port` first, then `host` (the port of an https URL without one is 443). */
export function tlsSettingFor(url: URL, settings: Readonly<Record<string, TlsSetting>>): TlsSetting | undefined {
	const host = url.hostname.toLowerCase();
	return settings[`${host}:${url.port || "443"}`] ?? settings[host];
}
