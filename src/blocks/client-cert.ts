/**
 * httpyac's client certificate pseudo-header (docs/blocks.md, "Client certificates"): a header
 * whose name ends in `ClientCert` (`ClientCert:`, `X-ClientCert:`) and whose value is
 * `cert: <file> key: <file> [passphrase: <text>]` or `pfx: <file> [passphrase: <text>]` names the
 * certificate the request presents to its https server. It is taken out of the headers, never
 * sent. Pure: the runner reads the files (src/runner/http/client-cert-files.ts).
 */

/** The certificate a block names, as written once references are resolved: files relative to the note. */
export interface ClientCertFiles {
	cert?: string;
	key?: string;
	/** A PKCS #12 bundle (certificate and key in one file). */
	pfx?: string;
	passphrase?: string;
}

/** httpyac's grammar: each part at most once, in this order, values without spaces. */
const VALUE = /^\s*(?:cert:\s*(\S+)\s*)?(?:key:\s*(\S+)\s*)?(?:pfx:\s*(\S+)\s*)?(?:passphrase:\s*(\S+)\s*)?$/;
/** A value that means to name a certificate: it starts with one of the parts. */
const MEANT = /^\s*(?:cert|key|pfx|passphrase):/;
const FORM = "write cert: <file> key: <file>, or pfx: <file>, each optionally followed by passphrase: <text>";

/** Whether a header is the pseudo-header (its value decides whether it is taken). */
export function isClientCertHeader(name: string): boolean {
	return name.length >= 10 && name.slice(-10).toLowerCase() === "clientcert";
}

export type ClientCertTaking = { ok: true; headers: Array<[string, string]>; clientCert: ClientCertFiles | null } | { ok: false; message: string };

/**
 * The headers without the pseudo-header, and the certificate it names. A value that does not
 * start like one (`ClientCert: yes`) is an ordinary header and is sent, as httpyac sends it; one
 * that does but breaks the form, a second certificate, or a cert without its key is an error
 * (naming the header) rather than a request sent without the certificate the block asked for.
 */
export function takeClientCert(headers: ReadonlyArray<[string, string]>): ClientCertTaking {
	let clientCert: ClientCertFiles | null = null;
	const kept: Array<[string, string]> = [];
	for (const [name, value] of headers) {
		if (!isClientCertHeader(name) || !MEANT.test(value)) {
			kept.push([name, value]);
			continue;
		}
		const m = VALUE.exec(value);
		if (!m) return { ok: false, message: `${name}: "${value.trim()}" is not a client certificate: ${FORM}` };
		const [, cert, key, pfx, passphrase] = m;
		if (pfx !== undefined && (cert !== undefined || key !== undefined)) return { ok: false, message: `${name}: name the certificate once, by cert: and key: or by pfx:` };
		if (pfx === undefined && (cert === undefined || key === undefined)) return { ok: false, message: `${name}: ${cert !== undefined ? "cert: needs its key:" : key !== undefined ? "key: needs its cert:" : "no file is named"} (${FORM})` };
		if (clientCert !== null) return { ok: false, message: `${name}: the request already names a client certificate` };
		clientCert = { ...(cert !== undefined ? { cert } : {}), ...(key !== undefined ? { key } : {}), ...(pfx !== undefined ? { pfx } : {}), ...(passphrase !== undefined ? { passphrase } : {}) };
	}
	return { ok: true, headers: kept, clientCert };
}

/** The pseudo-header's value for a certificate, as a `.http` file writes it back. */
export function clientCertValue(c: ClientCertFiles): string {
	const parts = c.pfx !== undefined ? [`pfx: ${c.pfx}`] : [`cert: ${c.cert ?? ""}`, `key: ${c.key ?? ""}`];
	if (c.passphrase !== undefined) parts.push(`passphrase: ${c.passphrase}`);
	return parts.join(" ");
}
