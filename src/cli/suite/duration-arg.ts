import { UsageError } from "../usage";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * `--deadline` values: `90s`, `5m`, `1h30m`, `500ms`, or a bare number of seconds (as
 * `timeout` commands take it). Zero or a malformed value is a usage error.
 */
export function parseDuration(text: string, option: string): number {
	const t = text.trim();
	if (/^\d+(\.\d+)?$/.test(t)) return positive(Number(t) * 1000, text, option);
	const parts = [...t.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
	if (parts.length === 0 || parts.map((p) => p[0]).join("") !== t) throw new UsageError(`${option} takes a duration like 90s, 5m, 1h30m or 500ms, not "${text}"`);
	return positive(parts.reduce((ms, p) => ms + Number(p[1]) * UNIT_MS[p[2]], 0), text, option);
}

function positive(ms: number, text: string, option: string): number {
	if (!(ms > 0)) throw new UsageError(`${option} must be more than zero, not "${text}"`);
	return ms;
}
