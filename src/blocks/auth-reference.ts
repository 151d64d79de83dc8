/**
 * `{{$auth.token("name")}}` and `{{$auth.idToken("name")}}` (JetBrains and kulala): the access
 * or ID token of the auth configuration `name` of the active environment. Only the form is
 * read here; the token comes from the runner, which fetches it before the block is prepared.
 */

export type AuthTokenKind = "token" | "idToken";

export interface AuthReference {
	/** The configuration's name, as in `[environments.<env>.auth.<name>]`. */
	name: string;
	which: AuthTokenKind;
}

const AUTH_REF = /^\$auth\.(token|idToken)\(\s*(?:"([^"]*)"|'([^']*)')\s*\)$/;

/** Whether the inside of a reference starts like an auth reference (then it is one, or an invalid one). */
export const isAuthHead = (inner: string): boolean => inner.startsWith("$auth.");

/** The configuration and token an auth reference names; null when `inner` is not one. */
export function parseAuthReference(inner: string): AuthReference | null {
	const m = AUTH_REF.exec(inner.trim());
	if (!m) return null;
	const name = m[2] ?? m[3];
	return name ? { name, which: m[1] as AuthTokenKind } : null;
}

/** The form an auth reference takes, quoted in errors. */
export const AUTH_REFERENCE_FORM = '{{$auth.token("name")}} or {{$auth.idToken("name")}}';
