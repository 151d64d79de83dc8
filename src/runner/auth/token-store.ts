/**
 * Tokens kept across sessions for the configurations that ask for it (`persist = true`): in
 * Obsidian's secret storage, one secret per environment and configuration, never in a file the
 * plugin writes. The CLI keeps none (its tokens live for the run).
 */
import type { TokenSet } from "./token-set";

/** What the store needs of Obsidian's `app.secretStorage` (1.11.4): it has no delete, so a forgotten token is an empty secret. */
export interface SecretStorageLike {
	getSecret(id: string): string | null;
	setSecret(id: string, secret: string): void;
	listSecrets(): string[];
}

export interface TokenStore {
	load(environment: string, name: string): TokenSet | undefined;
	/** Keeps the tokens, or forgets them (null). */
	save(environment: string, name: string, tokens: TokenSet | null): void;
	/** Forgets every kept token ("Clear auth tokens"). */
	clear(): void;
}

const PREFIX = "runnable-blocks-token-";

/**
 * The secret's id: secret ids are lowercase letters, digits and dashes, so the names are written
 * in that alphabet and followed by a hash of the exact pair, which keeps `Dev`/`dev` and `a-b`/`a_b` apart.
 */
export function tokenSecretId(environment: string, name: string): string {
	const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "x";
	return `${PREFIX}${slug(environment)}-${slug(name)}-${fnv1a(`${environment}\u0000${name}`)}`;
}

/** FNV-1a, 32 bits, in base 36: a short, stable tag (not a secret, not a security measure). */
function fnv1a(text: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
	return h.toString(36);
}

/** A kept token set read back; undefined for anything that is not one (an empty or foreign secret). */
export function parseTokenSet(text: string | null): TokenSet | undefined {
	if (!text) return undefined;
	try {
		const v = JSON.parse(text) as Partial<Record<keyof TokenSet, unknown>>;
		if (typeof v.accessToken !== "string" || typeof v.issuedAt !== "number") return undefined;
		const optionalText = (x: unknown) => x === undefined || typeof x === "string";
		if (!optionalText(v.idToken) || !optionalText(v.refreshToken) || !optionalText(v.scope) || !optionalText(v.tokenType) || !(v.expiresAt === undefined || typeof v.expiresAt === "number")) return undefined;
		return v as TokenSet;
	} catch {
		return undefined;
	}
}

export function secretTokenStore(secrets: SecretStorageLike): TokenStore {
	return {
		load: (environment, name) => parseTokenSet(secrets.getSecret(tokenSecretId(environment, name))),
		save: (environment, name, tokens) => secrets.setSecret(tokenSecretId(environment, name), tokens ? JSON.stringify(tokens) : ""),
		clear: () => {
			for (const id of secrets.listSecrets()) if (id.startsWith(PREFIX) && secrets.getSecret(id)) secrets.setSecret(id, "");
		},
	};
}
