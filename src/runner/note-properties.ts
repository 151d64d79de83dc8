import { findReferences, propertyNameOf, resolveTemplate, type AssertionResult, type PropertyDirective, type ReferenceSources } from "../blocks";
import type { NoteProperties, PropertyWrites } from "./note-memory";
import type { FinalState } from "./result";
import { selectJsonValue } from "./select-json";

/**
 * A note's front-matter properties, read and written by blocks (docs/note-memory.md):
 * `{{this.<name>}}` reads one as text, `# @property name = {{…}}` computes what a
 * successful run sets. Pure: the plugin writes through `processFrontMatter`, the CLI
 * through its front-matter patch.
 */

export type { PropertyWrites } from "./note-memory";

/** A property as text in a request: strings as they are, lists and maps as JSON, an empty property as "". */
export function propertyText(value: unknown): string {
	if (value === null || value === undefined) return "";
	if (typeof value === "string") return value;
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	return JSON.stringify(value);
}

/** `{{this.<name>}}`'s source: the property's text, undefined when the note has no such property. */
export function propertyReader(properties: NoteProperties): (name: string) => string | undefined {
	return (name) => (Object.prototype.hasOwnProperty.call(properties, name) ? propertyText(properties[name]) : undefined);
}

/** A run whose values may go into the note: it ended done (or from the cache) and none of its `??` assertions failed. */
export function runSucceeded(result: { state: FinalState; assertions?: readonly AssertionResult[] }): boolean {
	return (result.state === "done" || result.state === "cached") && !(result.assertions ?? []).some((a) => !a.ok);
}

/** `{{$.price}}`, `{{$[0].id}}`, `{{$}}`: a path into the block's own response body (not a `$uuid`-like built-in). */
function ownPathOf(inner: string): string | null {
	return inner === "$" || inner.startsWith("$.") || inner.startsWith("$[") ? inner : null;
}

/** What a directive's value reads: the block's own response body, the references' sources, the note's properties. */
export interface PropertyScope {
	/** The response body as text (absent: the run has none). */
	ownBody: string | undefined;
	sources: ReferenceSources;
	properties?: NoteProperties;
}

type ValueOf = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * The values of a block's `# @property` directives, all or none: one that does not resolve
 * sets nothing and says which. A value that is one reference keeps the type of what it reads
 * (a JSON number, boolean, list or map; a property as it is; `42` or `true` read as such from
 * another reference's text); a value with text around its references is a string.
 */
export function propertyWrites(directives: readonly PropertyDirective[], scope: PropertyScope): PropertyWrites {
	const values: Record<string, unknown> = {};
	for (const d of directives) {
		const found = valueOf(d.value, scope);
		if (!found.ok) return { ok: false, message: `@property ${d.name}: ${found.message}` };
		values[d.name] = found.value;
	}
	return { ok: true, values };
}

function valueOf(written: string, scope: PropertyScope): ValueOf {
	const refs = findReferences(written);
	if (refs.length === 1 && refs[0].start === 0 && refs[0].end === written.length) {
		const inner = refs[0].inner;
		const path = ownPathOf(inner);
		if (path !== null) return ownValue(path, scope);
		const property = propertyNameOf(inner);
		if (property !== null && scope.properties && Object.prototype.hasOwnProperty.call(scope.properties, property)) return { ok: true, value: scope.properties[property] };
		const text = resolved(written, scope.sources);
		return text.ok ? { ok: true, value: scalarOf(text.value as string) } : text;
	}
	let out = "";
	let last = 0;
	for (const ref of refs) {
		out += unescape(written.slice(last, ref.start));
		last = ref.end;
		const path = ownPathOf(ref.inner);
		const part = path !== null ? ownValue(path, scope) : resolved(ref.text, scope.sources);
		if (!part.ok) return part;
		out += path !== null ? propertyText(part.value) : (part.value as string);
	}
	return { ok: true, value: out + unescape(written.slice(last)) };
}

function ownValue(path: string, scope: PropertyScope): ValueOf {
	if (scope.ownBody === undefined) return { ok: false, message: `the run has no response body to read ${path} from` };
	return selectJsonValue(scope.ownBody, path, "the response body");
}

function resolved(text: string, sources: ReferenceSources): ValueOf {
	const r = resolveTemplate(text, sources);
	return r.errors.length === 0 ? { ok: true, value: r.value } : { ok: false, message: r.errors[0].message };
}

/** `42`, `-1.5`, `true`, `false` as the number or boolean they are written as; anything else stays text (`007` too). */
function scalarOf(text: string): unknown {
	if (text === "true" || text === "false") return text === "true";
	if (!/^-?\d/.test(text)) return text;
	try {
		const n: unknown = JSON.parse(text);
		return typeof n === "number" ? n : text;
	} catch {
		return text;
	}
}

function unescape(s: string): string {
	return s.split("\\{{").join("{{");
}
