import { JSONPath } from "jsonpath-plus";
import type { AliasPath, Lookup } from "../blocks";
import { responseText } from "./response/content-type";
import { readDbPath } from "./db/db-result";
import type { BlockResult } from "./result";

/** Text of a run's response body in its charset (what chaining reads; the panel shows the same). */
export function bodyText(result: Pick<BlockResult, "head" | "body">): string {
	return responseText(result.head?.headers ?? [], result.body);
}

function stringify(value: unknown): string {
	return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Evaluates a JSONPath against JSON text. The path comes from the user's note; the JSON
 * comes from the response and is only ever data: jsonpath-plus runs in its "safe" mode,
 * which never `eval`s anything.
 */
export function selectJson(text: string, path: string, what: string): Lookup {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return { ok: false, message: `${what} is not JSON, so ${path} cannot be read` };
	}
	const direct = simplePath(json, path);
	if (direct) return { ok: true, value: stringify(direct.value) };
	let matches: unknown[];
	try {
		// jsonpath-plus answers undefined, not [], for a falsy document (`null`, `0`, `false`, `""`).
		matches = JSONPath<unknown[] | undefined>({ path, json: json as object, eval: "safe", wrap: true }) ?? [];
	} catch (e) {
		return { ok: false, message: `invalid JSONPath ${path}: ${e instanceof Error ? e.message : String(e)}` };
	}
	if (matches.length === 0) return { ok: false, message: `${path} matches nothing in ${what}` };
	return { ok: true, value: stringify(matches.length === 1 ? matches[0] : matches) };
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

function headerValue(headers: Array<[string, string]>, name: string, what: string): Lookup {
	const lower = name.toLowerCase();
	const values = headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
	if (values.length === 0) return { ok: false, message: `${what} has no header "${name}"` };
	return { ok: true, value: values.join(", ") };
}

/** Reads `{{alias.(request|response).(body|headers|status)...}}` from a finished run. */
export function readAliasPath(result: BlockResult, path: AliasPath): Lookup {
	const label = `${path.alias}.${path.part}`;
	if (result.db) return readDbPath(result, path);
	if (path.section === "rowCount") return { ok: false, message: `block "${path.alias}" is not a db block: rowCount belongs to db results` };
	if (path.part === "request") {
		const req = result.request;
		if (!req) return { ok: false, message: `block "${path.alias}" has no request` };
		if (path.section === "headers") return headerValue(req.headers, path.selector, label);
		if (path.section === "body") return path.selector === "*" ? { ok: true, value: req.body } : selectJson(req.body, path.selector, `${label}.body`);
		return { ok: false, message: "requests have no status" };
	}
	if (result.state !== "done" && result.state !== "cached") {
		return { ok: false, message: `block "${path.alias}" ended ${result.state}${result.error ? ` (${result.error.message})` : ""}, so it has no response` };
	}
	const head = result.head;
	if (!head) return { ok: false, message: `block "${path.alias}" has no response` };
	switch (path.section) {
		case "status":
			return { ok: true, value: String(head.status) };
		case "headers":
			return headerValue(head.headers, path.selector, label);
		case "body": {
			const text = bodyText(result);
			return path.selector === "*" ? { ok: true, value: text } : selectJson(text, path.selector, `${label}.body`);
		}
	}
}
