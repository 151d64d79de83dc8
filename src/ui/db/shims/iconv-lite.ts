/**
 * Stands in for iconv-lite inside the plugin's mysql2 (esbuild.config.mjs, `lean-drivers`), whose
 * legacy-charset tables are 430 KB of main.js. mysql2 reaches it only for a charset Buffer cannot
 * decode: "cesu8", its name for MySQL's 3-byte utf8 (the handshake, utf8mb3 columns), which holds
 * no character outside the BMP and so reads and writes exactly as UTF-8; any other charset
 * decodes through the platform's TextDecoder (which knows the legacy ones). Encoding into a
 * legacy charset is refused clearly: our connections talk utf8mb4.
 */
interface Decoder {
	write(bytes: Uint8Array): string;
	end(): string | undefined;
}

interface Encoder {
	write(text: string): Uint8Array;
	end(): Uint8Array | undefined;
}

const asUtf8 = (encoding: string) => (/^cesu-?8$/i.test(encoding) ? "utf-8" : encoding);

export function getDecoder(encoding: string): Decoder {
	const decoder = new TextDecoder(asUtf8(encoding));
	return {
		write: (bytes) => decoder.decode(bytes, { stream: true }),
		end: () => decoder.decode(),
	};
}

export function getEncoder(encoding: string): Encoder {
	if (asUtf8(encoding) !== "utf-8") throw new Error(`Runnable Blocks: the plugin sends MySQL text as UTF-8 only, not ${encoding}; set the connection's charset to utf8mb4`);
	// A Buffer, as mysql2 expects of iconv-lite: mysql2 runs only on desktop, where Node's Buffer is there.
	return { write: (text) => Buffer.from(text, "utf8"), end: () => undefined };
}

export function encodingExists(encoding: string): boolean {
	try {
		new TextDecoder(asUtf8(encoding));
		return true;
	} catch {
		return false;
	}
}
