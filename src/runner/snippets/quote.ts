/** Quoting for the languages snippets are written in. Each returns a literal that means exactly `s`. */

/** POSIX shell: single quotes, with `'` written as `'\''`. Nothing is special inside them ($, `, !, \). */
export function shellQuote(s: string): string {
	if (s !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
	return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** JavaScript string literal (JSON is a subset of ES2019 string syntax). */
export function jsString(s: string): string {
	return JSON.stringify(s);
}

/** Python 3 string literal: JSON escapes are Python escapes too; non-ASCII stays as UTF-8 source. */
export function pyString(s: string): string {
	return JSON.stringify(s);
}

/**
 * Thrown deep inside a snippet writer when a request cannot be written safely in a format (e.g.
 * a header value with a line break); callers get it as a value from `exported`. The message is
 * the English text (the CLI's); `why` names the reason and `vars` fill it, so the plugin says it
 * in the user's language.
 */
export class ExportError extends Error {
	constructor(
		message: string,
		readonly why = "",
		readonly vars: Readonly<Record<string, string>> = {},
	) {
		super(message);
	}
}

/**
 * Why a block was not written: `not_exportable`, its request cannot be written in that format
 * (the writer's reason, named by `why` with its `vars`); `format_not_offered`, its kind does not
 * export to the format, the kind's name and formats given. Either way the plugin says it in the
 * user's language, and `message` is the English text.
 */
export type ExportRefusal =
	| { code: "not_exportable"; message: string; why: string; vars: Readonly<Record<string, string>> }
	| { code: "format_not_offered"; message: string; kind: string; formats: readonly string[]; format: string };

/** A snippet, or why the request cannot be written in that format. */
export type Exported = { ok: true; text: string } | { ok: false; error: ExportRefusal };

/** The refusal of a format the block's kind does not export to; the English text is the CLI's. */
export function formatNotOffered(kind: string, formats: readonly string[], format: string): Exported {
	return { ok: false, error: { code: "format_not_offered", message: `This ${kind} block exports as ${formats.join(", ")}, not ${format}`, kind, formats, format } };
}

/** Runs a snippet writer and gives its refusal as a value; anything else it throws is our bug. */
export function exported(write: () => string): Exported {
	try {
		return { ok: true, text: write() };
	} catch (e) {
		if (e instanceof ExportError) return { ok: false, error: { code: "not_exportable", message: e.message, why: e.why, vars: e.vars } };
		throw e;
	}
}

/** Header values with CR, LF or NUL cannot be written as one header line in any format. */
export function assertExportable(headers: ReadonlyArray<readonly [string, string]>): void {
	for (const [name, value] of headers) {
		if (/[\r\n\0]/.test(name) || /[\r\n\0]/.test(value)) {
			const header = name.replace(/[\r\n]/g, " ");
			throw new ExportError(`Header "${header}" contains a line break and cannot be exported`, "header_line_break", { header });
		}
	}
}

/** Joins repeated headers with ", " (RFC 9110 §5.3) for formats that take one value per name. */
export function combinedHeaders(headers: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
	const out: Array<[string, string]> = [];
	const index = new Map<string, number>();
	for (const [n, v] of headers) {
		const i = index.get(n.toLowerCase());
		if (i === undefined) {
			index.set(n.toLowerCase(), out.length);
			out.push([n, v]);
		} else out[i] = [out[i][0], `${out[i][1]}, ${v}`];
	}
	return out;
}

export function hasHeader(headers: ReadonlyArray<readonly [string, string]>, name: string): boolean {
	const lower = name.toLowerCase();
	return headers.some(([n]) => n.toLowerCase() === lower);
}
