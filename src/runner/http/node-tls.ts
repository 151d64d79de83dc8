import type * as Tls from "node:tls";
import type { TlsOptions } from "./tls-options";

/**
 * A server's TLS options as Node's `tls` takes them (the node transport, `ws`): its CA added to
 * the bundled roots, which Node's `ca` would replace. Desktop and the CLI only: it requires Node.
 */
export function nodeTlsOptions({ ca, ...rest }: TlsOptions): Omit<TlsOptions, "ca"> & { ca?: string[] } {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- Node's tls, only for a server with a CA of its own
	return ca === undefined ? rest : { ...rest, ca: [...(require("tls") as typeof Tls).rootCertificates, ca] };
}
