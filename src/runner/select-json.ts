import type { Lookup } from "../blocks";
import { jsonPath } from "../blocks/json-path";

function stringify(value: unknown): string {
	return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Evaluates a JSONPath against JSON text. The path comes from the user's note; the JSON
 * comes from the response and is only ever data: jsonpath-plus runs in its "safe" mode,
 * which never `eval`s anything.
 */
export function selectJson(text: string, path: string, what: string): Lookup {
	const found = selectJsonValue(text, path, what);
	return found.ok ? { ok: true, value: stringify(found.value) } : found;
}

/** `selectJson`'s match as the JSON value it is (a number stays a number): what a front-matter property keeps. */
export function selectJsonValue(text: string, path: string, what: string): { ok: true; value: unknown } | { ok: false; message: string } {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return { ok: false, message: `${what} is not JSON, so ${path} cannot be read` };
	}
	const direct = simplePath(json, path);
	if (direct) return { ok: true, value: direct.value };
	let matches: unknown[];
	try {
		// jsonpath-plus answers undefined, not [], for a falsy document (`null`, `0`, `false`, `""`).
		matches = jsonPath()<unknown[] | undefined>({ path, json: json as object, eval: "safe", wrap: true }) ?? [];
	} catch (e) {
		return { ok: false, message: `invalid JSONPath ${path}: ${e instanceof Error ? e.message : String(e)}` };
	}
	if (matches.length === 0) return { ok: false, message: `${path} matches nothing in ${what}` };
	return { ok: true, value: matches.length === 1 ? matches[0] : matches };
}

const SIMPLE_PATH = /^\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[(?:0|[1-9][0-9]{0,8})\])+$/;
const STEP = /\.([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\]/g;

/**
 * The one match of a path of names and indexes (`$.id`, `$.items[0].name`), read directly:
 * jsonpath-plus's parse and walk were most of a chained reference's cost. Null when the path
 * has anything else, or a step does not find its own property (an array's name, a missing key,
 * a string's index): jsonpath-plus then answers, as it always did.
 */
function simplePath(json: unknown, path: string): { value: unknown } | null {
	if (!SIMPLE_PATH.test(path)) return null;
	let value = json;
	for (const [, name, index] of path.matchAll(STEP)) {
		if (name !== undefined) {
			if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, name)) return null;
			value = (value as Record<string, unknown>)[name];
		} else {
			if (!Array.isArray(value) || Number(index) >= value.length) return null;
			value = value[Number(index)];
		}
	}
	return { value };
}
