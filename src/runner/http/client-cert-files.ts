import { readNoteFile, type BodyFiles } from "../file-parts";
import type { ClientTls, PreparedRequest } from "../request";
import type { RunError } from "../result";

const CERT_FILE = { missing: "cert_file_missing", outside: "cert_file_outside" } as const;

/**
 * The request with the certificate its `ClientCert:` names read into `clientTls`: each file beside
 * the note, then from the vault root, as `< file` body parts are found. Only for an https URL: a
 * plain http request has no handshake to present it in, so its files are not read. A missing
 * file fails the run before anything is sent.
 */
export async function withClientTls(request: PreparedRequest, files: BodyFiles | undefined, notePath: string): Promise<{ ok: true; request: PreparedRequest } | { ok: false; error: RunError }> {
	const named = request.clientCert;
	if (!named || !/^https:/i.test(request.url)) return { ok: true, request };
	const tls: ClientTls = {};
	const decoder = new TextDecoder();
	for (const part of ["cert", "key", "pfx"] as const) {
		const path = named[part];
		if (path === undefined) continue;
		const read = await readNoteFile(files, notePath, path, CERT_FILE);
		if (!read.ok) return read;
		if (part === "pfx") tls.pfx = read.bytes;
		else tls[part] = decoder.decode(read.bytes);
	}
	if (named.passphrase !== undefined) tls.passphrase = named.passphrase;
	return { ok: true, request: { ...request, clientTls: tls } };
}
