import type * as SetCookieParser from "set-cookie-parser";

/** A Set-Cookie header as the Cookies tab shows it: every attribute the server sent. */
export interface ResponseCookie {
	name: string;
	value: string;
	domain?: string;
	path?: string;
	expires?: string;
	maxAge?: number;
	secure: boolean;
	httpOnly: boolean;
	sameSite?: string;
	partitioned: boolean;
	/** The header line as received. */
	raw: string;
}

/** Parses every Set-Cookie header of a response (values are shown as sent, not URL-decoded). */
export function parseCookies(headers: ReadonlyArray<readonly [string, string]>): ResponseCookie[] {
	const raw = headers.filter(([n]) => n.toLowerCase() === "set-cookie").map(([, v]) => v);
	return raw.map((line) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- a text module of main.js, compiled on the first Set-Cookie (docs/architecture.md, "Text modules")
		const [c] = (require("set-cookie-parser") as typeof SetCookieParser).parseSetCookie(line, { decodeValues: false });
		return {
			name: c?.name ?? "",
			value: c?.value ?? "",
			domain: c?.domain,
			path: c?.path,
			expires: c?.expires ? c.expires.toUTCString() : undefined,
			maxAge: c?.maxAge,
			secure: c?.secure === true,
			httpOnly: c?.httpOnly === true,
			sameSite: c?.sameSite,
			partitioned: c?.partitioned === true,
			raw: line,
		};
	});
}
