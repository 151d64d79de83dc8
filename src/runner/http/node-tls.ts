import type * as Tls from "node:tls";
import type { TlsOptions } from "./tls-options";

/**
 * A server's TLS options as Node's `tls` takes them (the node transport, `ws`): its CA added to
 * the bundled roots, which Node's `ca` would replace; a PKCS #12 bundle as a Buffer. Desktop and
 * the CLI only: it requires Node.
 */
export function nodeTlsOptions({ ca, pfx, ...rest }: TlsOptions): Omit<TlsOptions, "ca" | "pfx"> & { ca?: string[]; pfx?: Buffer } {
	return {
		...rest,
		...(pfx !== undefined ? { pfx: Buffer.from(pfx.buffer, pfx.byteOffset, pfx.byteLength) } : {}),
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- Node's tls, only for a server with a CA of its own
		...(ca !== undefined ? { ca: [...(require("tls") as typeof Tls).rootCertificates, ca] } : {}),
	};
}
