/** The tokens one grant gave, as the cache keeps them. */
export interface TokenSet {
	accessToken: string;
	idToken?: string;
	refreshToken?: string;
	/** Epoch ms when the access token expires; absent when the provider did not say. */
	expiresAt?: number;
	/** Epoch ms when it was issued (the refresh margin is a share of the lifetime). */
	issuedAt: number;
	scope?: string;
	/** The provider's `token_type` (RFC 6749 §5.1), lower-cased (oauth4webapi); absent in tokens kept before it was recorded. */
	tokenType?: string;
}

/** A token is renewed when less than this much of it remains, or a fifth of its lifetime if that is less. */
export const REFRESH_MARGIN_MS = 30_000;

/** Whether a token set can still be sent at `now` without renewing it first. */
export function isFresh(tokens: TokenSet, now: number): boolean {
	if (tokens.expiresAt === undefined) return true;
	const margin = Math.min(REFRESH_MARGIN_MS, (tokens.expiresAt - tokens.issuedAt) / 5);
	return now < tokens.expiresAt - margin;
}
