import type { CanonicalRequest } from "./http";

/**
 * The form editor's view of a request: URL split from its query, query and form bodies as
 * rows. Text is kept as written (no percent-decoding), so references and encodings survive a
 * round trip through the form untouched.
 */
export interface FormRow {
	name: string;
	value: string;
	/** Written without `=` (`?flag`): kept that way while the value stays empty. */
	bare?: boolean;
}

export interface RequestForm {
	/** The URL without its query string. */
	base: string;
	query: FormRow[];
	headers: FormRow[];
	/** Rows when the body is form-urlencoded, else null (the body is edited as text). */
	formBody: FormRow[] | null;
	body: string;
}

function splitPairs(text: string): FormRow[] {
	if (text === "") return [];
	return text.split("&").map((pair) => {
		const eq = pair.indexOf("=");
		return eq === -1 ? { name: pair, value: "", bare: true } : { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
	});
}

function joinPairs(rows: readonly FormRow[]): string {
	return rows
		.filter((r) => r.name !== "" || r.value !== "")
		.map((r) => (r.bare && r.value === "" ? r.name : `${r.name}=${r.value}`))
		.join("&");
}

function isFormUrlencoded(headers: ReadonlyArray<readonly [string, string]>): boolean {
	return headers.some(([n, v]) => n.toLowerCase() === "content-type" && /^application\/x-www-form-urlencoded\b/i.test(v.trim()));
}

export function toForm(req: CanonicalRequest): RequestForm {
	const q = req.url.indexOf("?");
	const form = isFormUrlencoded(req.headers) && !req.body.includes("\n");
	return {
		base: q === -1 ? req.url : req.url.slice(0, q),
		query: q === -1 ? [] : splitPairs(req.url.slice(q + 1)),
		headers: req.headers.map(([name, value]) => ({ name, value })),
		formBody: form ? splitPairs(req.body) : null,
		body: req.body,
	};
}

/** Applies a form back onto the request it came from (comments, method, version, handlers kept). */
export function fromForm(req: CanonicalRequest, form: RequestForm): CanonicalRequest {
	const query = joinPairs(form.query);
	return {
		...req,
		url: query ? `${form.base}?${query}` : form.base,
		headers: form.headers.filter((h) => h.name.trim() !== "").map((h) => [h.name.trim(), h.value.trim()]),
		body: form.formBody ? joinPairs(form.formBody) : form.body,
	};
}
