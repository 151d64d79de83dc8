/**
 * The `Authorization: Basic …` that credentials in a URL (`http://user:pw@host/`) stand for
 * (RFC 9110 §11.2; RFC 7617 for the UTF-8 bytes), null when the URL has none. Each transport
 * writes it itself: fetch refuses URLs with credentials, and Node ignores its `auth` option when
 * the headers are a raw array, as ours are.
 */
export function basicAuthOf(url: URL): string | null {
	if (!url.username && !url.password) return null;
	const bytes = new TextEncoder().encode(`${decoded(url.username)}:${decoded(url.password)}`);
	let binary = "";
	for (const b of bytes) binary += String.fromCharCode(b);
	return `Basic ${btoa(binary)}`;
}

/** A malformed escape (`%E0` alone) is sent as written rather than failing the request. */
function decoded(part: string): string {
	try {
		return decodeURIComponent(part);
	} catch {
		return part;
	}
}
