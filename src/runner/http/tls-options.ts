import { tlsSettingFor, type TlsSetting } from "../../settings/tls-settings";
import type { ClientTls } from "../request";

/** What the node transport adds to a request's TLS options for one server: PEM texts, as Node takes them. */
export interface TlsOptions {
	/** Trusted besides the bundled roots (the transport adds those). */
	ca?: string;
	cert?: string;
	key?: string;
	/** A PKCS #12 bundle (a block's `ClientCert: pfx:`), instead of cert and key. */
	pfx?: Uint8Array;
	passphrase?: string;
	rejectUnauthorized?: boolean;
}

/** A server's TLS options by URL (undefined: none configured); rejects with the reason when a file or secret is missing. */
export type TlsFor = (url: URL) => Promise<TlsOptions | undefined>;

/**
 * The node transport's TLS options from `[tls.*]` of user.toml, read each time a request to the
 * server starts (an edited user.toml or a renewed certificate applies to the next request).
 * `read` gives a file's text or null when there is none; `secret` a secret's value.
 */
export function tlsFromSettings(settings: () => Readonly<Record<string, TlsSetting>>, read: (path: string) => Promise<string | null>, secret: (id: string) => string | undefined): TlsFor {
	return async (url) => {
		const setting = tlsSettingFor(url, settings());
		if (!setting) return undefined;
		const file = async (path: string | undefined): Promise<string | undefined> => {
			if (path === undefined) return undefined;
			const text = await read(path);
			if (text === null) throw new Error(`no file "${path}" (user.toml [tls."${url.host}"])`);
			return text;
		};
		const [ca, cert, key] = await Promise.all([file(setting.ca), file(setting.cert), file(setting.key)]);
		const p = setting.passphrase;
		const passphrase = p === undefined ? undefined : "value" in p ? p.value : secret(p.secret);
		if (p !== undefined && passphrase === undefined) throw new Error(`the key's passphrase, secret "${"secret" in p ? p.secret : ""}", is not set (user.toml [tls."${url.host}"])`);
		return { ...(ca !== undefined ? { ca } : {}), ...(cert !== undefined ? { cert } : {}), ...(key !== undefined ? { key } : {}), ...(passphrase !== undefined ? { passphrase } : {}), ...(setting.verify ? {} : { rejectUnauthorized: false }) };
	};
}

/**
 * A connection's TLS options: the server's (user.toml), with a block's own certificate
 * (`ClientCert:`, read into `own`) in place of the server's one; `noClientCert`
 * (`# @no-client-cert`) drops the server's. The server's CA and verification stay.
 */
export function withBlockCertificate(server: TlsOptions | undefined, own: ClientTls | undefined, noClientCert: boolean): TlsOptions | undefined {
	if (own === undefined && !noClientCert) return server;
	const { cert: _cert, key: _key, passphrase: _passphrase, ...withoutCert } = server ?? {};
	const options: TlsOptions = { ...withoutCert, ...own };
	return Object.keys(options).length > 0 ? options : undefined;
}
