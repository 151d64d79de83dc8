import { AUTH_REFERENCE_FORM, isAuthHead, parseAuthReference } from "./auth-reference";
import { isNoteHead, parseNoteReference } from "./note-reference";

/**
 * `{{...}}` references: finding them, classifying them, and resolving a template
 * against sources passed in by the caller (built-ins, alias results, environment),
 * so the runner, the exporter and the editor share one resolver.
 */

/** `note`: an alias of another note's block, `{{[[Note]]#alias.…}}` (note-reference.ts). */
export type ReferenceKind = "builtin" | "alias" | "note" | "variable" | "invalid";

export interface Reference {
	/** The whole reference as written, braces included. */
	text: string;
	/** What is between the braces, trimmed. */
	inner: string;
	/** Offsets of `text` in the searched string. */
	start: number;
	end: number;
	kind: ReferenceKind;
}

/** `{{alias.response.body.$.x}}` split into its parts. */
export interface AliasPath {
	alias: string;
	part: "request" | "response";
	section: "body" | "headers" | "status" | "rowCount" | "messages";
	/**
	 * For body: `*` or a JSONPath starting with `$`; for headers: the header name; "" for status;
	 * for a stream's messages: `count`, or an index (negative from the end) with `.data`,
	 * `.data.$…`, `.event` or `.id` (docs/streams.md).
	 */
	selector: string;
}

const ALIAS_REF = /^([A-Za-z0-9_-]+)\.(request|response)\.(body|headers|status|rowCount|messages)(?:\.(.+))?$/;
/** An `ALIAS_REF` that `parseAliasPath` accepts: status and rowCount of the response alone, a header, `body.*` / `body.$…`, or a stream's messages. */
const ALIAS_OK = /^[A-Za-z0-9_-]+\.(?:response\.(?:status|rowCount|messages\.(?:count|-?\d+(?:\.(?:event|id|data(?:\.\$.*)?))?))|(?:request|response)\.(?:headers\..+|body\.(?:\*|\$.*)))$/;
/** What may follow `messages.`: `count`, or an index with what to read of that message. */
const MESSAGES_SELECTOR = /^(?:count|-?\d+(?:\.(?:event|id|data(?:\.\$.*)?))?)$/;
/** A variable name; `%name` is REST Client's percent-encoded value of `name`. */
const VARIABLE_REF = /^%?[A-Za-z_][A-Za-z0-9_.-]*$/;
const BUILTIN_NAMES = new Set(["uuid", "timestamp", "isoTimestamp", "randomInt"]);
const DOLLAR_BUILTINS = new Set(["$guid", "$uuid", "$timestamp", "$randomInt", "$datetime", "$isoTimestamp", "$localDatetime", "$processEnv", "$dotenv"]);

/** Classifies the inside of a reference. */
export function classifyReference(inner: string): ReferenceKind {
	if (isAuthHead(inner)) return parseAuthReference(inner) ? "builtin" : "invalid";
	if (isNoteHead(inner)) return parseNoteAliasPath(inner) ? "note" : "invalid";
	const space = inner.search(WHITESPACE);
	const head = space === -1 ? inner : inner.slice(0, space);
	if (inner.startsWith("$")) return DOLLAR_BUILTINS.has(head) || head.startsWith("$random.") ? "builtin" : "invalid";
	if (BUILTIN_NAMES.has(head)) return head === inner || head === "randomInt" ? "builtin" : "invalid";
	// Two tests rather than `parseAliasPath`: classifying must not allocate (every reference of a note is).
	if (ALIAS_OK.test(inner)) return "alias";
	if (ALIAS_REF.test(inner)) return "invalid";
	if (VARIABLE_REF.test(inner)) return "variable";
	return "invalid";
}

const WHITESPACE = /\s/;

export function parseAliasPath(inner: string): AliasPath | null {
	const m = ALIAS_REF.exec(inner);
	return m ? aliasPathOf(m) : null;
}

function aliasPathOf(m: RegExpExecArray): AliasPath | null {
	const alias = m[1];
	const part = m[2];
	const section = m[3];
	const selector = m[4] ?? "";
	if (section === "status" || section === "rowCount") {
		return part === "response" && selector === "" ? { alias, part: "response", section, selector } : null;
	}
	if (selector === "") return null;
	if (section === "messages") return part === "response" && MESSAGES_SELECTOR.test(selector) ? { alias, part: "response", section, selector } : null;
	if (section === "body" && selector !== "*" && !selector.startsWith("$")) return null;
	return { alias, part: part as AliasPath["part"], section: section as AliasPath["section"], selector };
}

/** `{{[[Auth]]#login.response.status}}` split into the link and the alias path; null when malformed. */
export function parseNoteAliasPath(inner: string): { link: string; path: AliasPath } | null {
	const parsed = parseNoteReference(inner);
	const path = parsed.ok ? parseAliasPath(parsed.reference.aliasPath) : null;
	return parsed.ok && path ? { link: parsed.reference.link, path } : null;
}

/** Why a reference that starts with `[[` is not a note reference. */
function noteReferenceProblem(inner: string): string {
	const parsed = parseNoteReference(inner);
	if (!parsed.ok) return parsed.why;
	return `"${parsed.reference.aliasPath}" is not an alias path (alias.response.body.$.x, alias.response.status…)`;
}

/** The message of a malformed reference that has a specific one (a note or auth reference); null for the others. */
export function malformedReferenceMessage(ref: Reference): string | null {
	if (ref.kind !== "invalid") return null;
	if (isNoteHead(ref.inner)) return `Invalid reference ${ref.text}: ${noteReferenceProblem(ref.inner)}`;
	return null;
}

/**
 * Finds every `{{...}}` in text. `\{{` is an escaped literal and is skipped; a `{{` without a
 * closing `}}` on the same line is not a reference. Offsets are `base` plus the offset in text.
 */
export function findReferences(text: string, base = 0): Reference[] {
	return addReferences(text, base, []);
}

/** `findReferences`, appending to `refs` (a block gathers its lines' references in one array). */
export function addReferences(text: string, base: number, refs: Reference[]): Reference[] {
	let i = 0;
	while ((i = text.indexOf("{{", i)) !== -1) {
		if (i > 0 && text[i - 1] === "\\") {
			i += 2;
			continue;
		}
		const close = text.indexOf("}}", i + 2);
		const newline = text.indexOf("\n", i + 2);
		if (close === -1 || (newline !== -1 && newline < close)) {
			i += 2;
			continue;
		}
		const inner = text.slice(i + 2, close).trim();
		refs.push({ text: text.slice(i, close + 2), inner, start: base + i, end: base + close + 2, kind: inner ? classifyReference(inner) : "invalid" });
		i = close + 2;
	}
	return refs;
}

/** Result of looking a reference up in one source. */
export type Lookup = { ok: true; value: string } | { ok: false; message: string; notRun?: string };

/** Where references get their values. Each returns undefined when the reference is not theirs. */
export interface ReferenceSources {
	builtin(inner: string): Lookup | undefined;
	alias(path: AliasPath): Lookup | undefined;
	/** `{{[[Note]]#alias.…}}`: absent where no other note can be read (then such a reference is unresolved, saying so). */
	note?: (link: string, path: AliasPath) => Lookup;
	variable(name: string): string | undefined;
	/** Variables whose value is taken as it is, never resolved further (secrets: a password may hold `{{`). */
	literal?(name: string): boolean;
	/** `{{this.<name>}}`: the note's front-matter property as text; absent where a note has no properties to read. */
	property?(name: string): string | undefined;
}

/** `{{this.price}}` reads the note's property `price` (APIR's form); the rest of the name may hold dots. */
export const PROPERTY_PREFIX = "this.";

/** The property a reference's inside names (`this.price` → `price`), or null. */
export function propertyNameOf(inner: string): string | null {
	return inner.startsWith(PROPERTY_PREFIX) && inner.length > PROPERTY_PREFIX.length ? inner.slice(PROPERTY_PREFIX.length) : null;
}

export interface ReferenceError {
	reference: string;
	message: string;
	/** Set when the reference names an alias whose block has not run yet. */
	notRunAlias?: string;
}

export interface Resolution {
	value: string;
	errors: ReferenceError[];
	/** Environment variables actually read, with their values: the cache key's env snapshot. */
	variablesUsed: Map<string, string>;
	aliasesUsed: Set<string>;
}

/**
 * Replaces every reference in `text`; `\{{` becomes a literal `{{`. A reference that does
 * not resolve is reported (never left in the output as literal `{{...}}` text for sending;
 * callers must not send when `errors` is non-empty). A variable whose value holds references
 * has them resolved in turn, one level per hop; `chain` is the variables being resolved, so a
 * cycle (`a = "{{b}}"`, `b = "{{a}}"`) is an error naming it instead of a loop.
 */
export function resolveTemplate(text: string, sources: ReferenceSources, chain: readonly string[] = []): Resolution {
	const errors: ReferenceError[] = [];
	const variablesUsed = new Map<string, string>();
	const aliasesUsed = new Set<string>();
	let out = "";
	let last = 0;
	for (const ref of findReferences(text)) {
		out += unescapeBraces(text.slice(last, ref.start));
		last = ref.end;
		const found = lookup(ref, sources, variablesUsed, aliasesUsed, chain);
		if (found.ok) {
			out += found.value;
		} else {
			errors.push({ reference: ref.text, message: found.message, notRunAlias: found.notRun });
			out += ref.text;
		}
	}
	out += unescapeBraces(text.slice(last));
	return { value: out, errors, variablesUsed, aliasesUsed };
}

function lookup(ref: Reference, sources: ReferenceSources, vars: Map<string, string>, aliases: Set<string>, chain: readonly string[]): Lookup {
	const unresolved = (why: string): Lookup => ({ ok: false, message: `Unresolved reference ${ref.text}: ${why}` });
	/** A variable's value, its own references resolved (docs/blocks.md: a value may contain references). */
	const variable = (name: string, value: string): Lookup => {
		vars.set(name, value);
		if (!hasTemplate(value) || sources.literal?.(name)) return { ok: true, value };
		if (chain.includes(name)) return unresolved(`variables refer to each other in a cycle: ${[...chain.slice(chain.indexOf(name)), name].join(" → ")}`);
		const inner = resolveTemplate(value, sources, [...chain, name]);
		for (const [k, v] of inner.variablesUsed) vars.set(k, v);
		for (const a of inner.aliasesUsed) aliases.add(a);
		if (inner.errors.length === 0) return { ok: true, value: inner.value };
		const first = inner.errors[0];
		const why = first.message.startsWith("Unresolved reference ") ? first.message.slice("Unresolved reference ".length) : first.message;
		return { ok: false, message: `Unresolved reference ${ref.text}: its value needs ${why}`, notRun: first.notRunAlias };
	};
	switch (ref.kind) {
		case "builtin":
			return sources.builtin(ref.inner) ?? unresolved("unknown built-in");
		case "alias": {
			const path = parseAliasPath(ref.inner) as AliasPath;
			aliases.add(path.alias);
			const found = sources.alias(path);
			if (found) return found;
			// Not an alias of a block above: it may still be a dotted environment variable.
			const value = sources.variable(ref.inner);
			if (value !== undefined) return variable(ref.inner, value);
			return unresolved(`no block above has alias "${path.alias}"`);
		}
		case "note": {
			const { link, path } = parseNoteAliasPath(ref.inner) as { link: string; path: AliasPath };
			return sources.note?.(link, path) ?? unresolved("references to other notes cannot be read here");
		}
		case "variable": {
			const encode = ref.inner.startsWith("%");
			const name = encode ? ref.inner.slice(1) : ref.inner;
			const property = sources.property ? propertyNameOf(name) : null;
			if (property !== null) {
				const text = sources.property?.(property);
				if (text === undefined) return unresolved(`the note has no property "${property}" in its front matter`);
				return { ok: true, value: encode ? encodeURIComponent(text) : text };
			}
			const value = sources.variable(name);
			if (value === undefined) return unresolved(`no variable "${name}" in the active environment`);
			const found = variable(name, value);
			return found.ok && encode ? { ok: true, value: encodeURIComponent(found.value) } : found;
		}
		case "invalid":
			if (isAuthHead(ref.inner)) return unresolved(`write ${AUTH_REFERENCE_FORM}`);
			if (isNoteHead(ref.inner)) return unresolved(noteReferenceProblem(ref.inner));
			return unresolved("not a built-in, an alias path (alias.response.body.$.x) or a variable name");
	}
}

/**
 * The two ways to write a literal `{{`: `\{{` (ours), and httpyac's `\{\{name\}\}`, which sends
 * `{{name}}`. The reference finder passes over both.
 */
function unescapeBraces(s: string): string {
	const plain = s.includes("\\{{") ? s.split("\\{{").join("{{") : s;
	return plain.includes("\\{\\{") ? plain.replace(HTTPYAC_ESCAPE, "{{$1}}") : plain;
}
const HTTPYAC_ESCAPE = /\\\{\\\{([^{}]+?)\\\}\\\}/g;

/** Whether a text has anything for resolveTemplate to do: a reference, or an escape to take back. */
function hasTemplate(s: string): boolean {
	return s.includes("{{") || s.includes("\\{\\{");
}

/** RFC 9110 token: what a header name must be once references are resolved. */
export function isHttpToken(name: string): boolean {
	return HTTP_TOKEN.test(name);
}

const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
