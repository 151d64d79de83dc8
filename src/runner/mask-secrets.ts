import { SECRET_MASK } from "./request";

/**
 * Replaces secret values in a text, raw and percent-encoded, before it leaves the run: a URL
 * stored in history, a question or block context sent to the chat model.
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
	let out = text;
	for (const s of secrets) {
		if (!s) continue;
		for (const form of new Set([s, encodeURIComponent(s), encodeURI(s)])) out = out.split(form).join(SECRET_MASK);
	}
	return out;
}
