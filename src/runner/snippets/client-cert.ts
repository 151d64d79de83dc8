import type { ClientCertFiles } from "../../blocks/client-cert";
import type { PreparedRequest } from "../request";
import type { LocateFile } from "./file-body";
import { ExportError, shellQuote } from "./quote";

/** The certificate an https request presents (`ClientCert:`), or null: an http request presents none, as it runs. */
function presented(req: Pick<PreparedRequest, "url" | "clientCert">): ClientCertFiles | null {
	return req.clientCert && /^https:/i.test(req.url) ? req.clientCert : null;
}

/** fetch, Python's requests and HTTPie snippets cannot present every certificate alike: only curl and .http carry one. */
export function refuseClientCert(req: Pick<PreparedRequest, "url" | "clientCert">, tool: string): void {
	if (presented(req)) throw new ExportError(`A request with a client certificate (ClientCert) exports to cURL and .http only, not ${tool}`, "client_cert_tool", { tool });
}

/** curl's path argument of --cert: a colon would start the password, so it is escaped (curl's rule), as is a backslash. */
const curlCertPath = (path: string) => path.replace(/[\\:]/g, (c) => `\\${c}`);

/**
 * curl's options presenting the request's certificate (`--cert`, `--key`, `--cert-type P12`,
 * `--pass`), each file by the path the host gives for it, found beside the note or in the vault
 * as the run finds it.
 */
export function curlClientCertArgs(req: Pick<PreparedRequest, "url" | "clientCert">, locate: LocateFile | undefined): string[] {
	const cert = presented(req);
	if (!cert) return [];
	const file = (path: string) => {
		if (!locate) throw new ExportError(`A request with a client certificate (${path}) is exported as a snippet on desktop only: copy as .http, or run the block`, "client_cert_desktop_only", { path });
		const found = locate(path);
		if (found === null) throw new ExportError(`the client certificate file ${path} was not found beside the note or in the vault`, "client_cert_not_found", { path });
		return found;
	};
	const args = cert.pfx !== undefined ? ["--cert-type", "P12", "--cert", shellQuote(curlCertPath(file(cert.pfx)))] : ["--cert", shellQuote(curlCertPath(file(cert.cert ?? ""))), "--key", shellQuote(file(cert.key ?? ""))];
	if (cert.passphrase !== undefined) args.push("--pass", shellQuote(cert.passphrase));
	return args;
}
