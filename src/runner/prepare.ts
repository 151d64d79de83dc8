import { evaluateBuiltin, isHttpToken, type ClientCertFiles, parseAuthReference, resolveTemplate, shapeRequest, systemEntropy, type Entropy, type AliasPath, type HttpBlock, type Lookup, type NoteBlock, type ReferenceSources, type Resolution } from "../blocks";
import { failedError, failureText } from "./failures";
import { DEFAULT_TIMEOUT_MS, SECRET_MASK, type FilePart, type MaskedRequest, type PreparedRequest } from "./request";
import type { BlockResult, RunError } from "./result";
import type { RunAuth } from "./auth/run-auth";
import { isDotenvReference } from "./dotenv-file";
import type { OtherNotes } from "./cross-note";
import type { ImportedResults } from "./imports";
import { propertyReader } from "./note-properties";
import type { NoteProperties } from "./note-memory";

/** What a block's references can read. */
export interface PrepareContext {
	/** Variables of the active environment (secret values included; they are masked elsewhere). */
	env: Readonly<Record<string, string>>;
	/** `@name = value` variables of the note the block sees (`fileVariablesFor`): they win over `env`. */
	fileVariables?: Readonly<Record<string, string>>;
	/** The block's `# @prompt` values for this run (prompt-answers.ts): they win over both. */
	answers?: Readonly<Record<string, string>>;
	/** Aliases defined in the note. A reference to one of them is an alias reference. */
	aliases: ReadonlySet<string>;
	/** The latest finished run of an alias, if any. */
	result(alias: string): BlockResult | undefined;
	/** Reads a path from a finished run (its kind's reader). */
	read(result: BlockResult, path: AliasPath): Lookup;
	entropy?: Entropy;
	/** Timeout when the block has no `timeout=` token (user.toml `general.timeout`). */
	defaultTimeoutMs?: number;
	/** Names of the environment's secret variables: where they are substituted is masked in the shown request. */
	secretNames?: ReadonlySet<string>;
	/** Secret variables whose secret has no value: a reference to one says the secret is not set. */
	unsetSecrets?: ReadonlySet<string>;
	/** `{{$auth.token("name")}}`: the environment's auth configurations and their kept tokens (absent: none). */
	auth?: RunAuth;
	/** `{{[[Note]]#alias.…}}`: other notes' kept results (absent: such references cannot be read). */
	notes?: OtherNotes;
	/** `# @import`: the imported files' kept results, read by an alias the note does not define (absent: no imports). */
	imports?: ImportedResults;
	/** The note's front-matter properties, for `{{this.<name>}}` (absent: the note has none to read). */
	properties?: NoteProperties;
}

export type { NoteProperties } from "./note-memory";

/** What every block of a run reads alike: the active environment, the note's finished runs, the defaults. */
export interface RunScope {
	/** Variables of the active environment (secret values included). */
	env: Readonly<Record<string, string>>;
	/** The latest finished run of each alias of the note (its session in the plugin, a Map in the CLI). */
	results: { get(alias: string): BlockResult | undefined };
	defaultTimeoutMs?: number;
	entropy?: Entropy;
	/** The environment's secret variables (all) and those with no value. */
	secrets?: { names: ReadonlySet<string>; unset: ReadonlySet<string> };
	/** The environment's auth configurations, their tokens and how to get them. */
	auth?: RunAuth;
	/** Other notes' results, for `{{[[Note]]#alias.…}}` (cross-note.ts). */
	notes?: OtherNotes;
	/** The imported files' results, for the aliases of `# @import` (imports.ts). */
	imports?: ImportedResults;
	/** The note's properties; the engine adds what a block of the run set (`# @property`). */
	properties?: NoteProperties;
}

/** The blocks references can read by alias: the note's runnable blocks, the first of each name. */
export function aliasBlocks(note: readonly NoteBlock[]): Map<string, NoteBlock> {
	const byAlias = new Map<string, NoteBlock>();
	for (const b of note) if (b.alias !== null && b.runnable && !byAlias.has(b.alias)) byAlias.set(b.alias, b);
	return byAlias;
}

/**
 * What a kind adds to a block prepared for export beyond its request (a stream's protocol and
 * resolved messages), by declaration merging in the kind's own module, as result.ts's registries
 * are filled: this file names no kind.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- empty here: each kind fills it
export interface KindPreparations {}

export type Preparation =
	| ({
			ok: true;
			request: PreparedRequest;
			/** Only the environment variables the block references: the cache key's snapshot. */
			envSnapshot: Record<string, string>;
			aliasesUsed: Set<string>;
	  } & Partial<KindPreparations>)
	| { ok: false; error: RunError; /** Aliases that must run first. */ notRun: string[] };

const has = (values: Readonly<Record<string, string>>, name: string): boolean => Object.prototype.hasOwnProperty.call(values, name);

export function referenceSources(ctx: PrepareContext): ReferenceSources {
	const entropy = ctx.entropy ?? systemEntropy;
	return {
		builtin: (inner) => {
			const auth = parseAuthReference(inner);
			if (!auth) return evaluateBuiltin(inner, entropy);
			return ctx.auth ? ctx.auth.lookup(auth) : { ok: false, message: `Unresolved reference {{${inner}}}: the active environment has no auth configuration "${auth.name}"` };
		},
		alias: (path) => {
			// The note's own alias wins over an imported one of the same name.
			if (!ctx.aliases.has(path.alias)) return ctx.imports?.read(path);
			const result = ctx.result(path.alias);
			if (!result) return { ok: false, message: `Unresolved reference: block "${path.alias}" has not run yet`, notRun: path.alias };
			const found = ctx.read(result, path);
			return found.ok ? found : { ok: false, message: `Unresolved reference {{${path.alias}.${path.part}.${path.section}${path.selector ? `.${path.selector}` : ""}}}: ${found.message}` };
		},
		...(ctx.notes ? { note: (link: string, path: AliasPath) => (ctx.notes as OtherNotes).read(link, path) } : {}),
		// Precedence prompt > block > file > environment (docs/blocks.md); fileVariables already holds block over file.
		variable: (name) => (ctx.answers && has(ctx.answers, name) ? ctx.answers[name] : ctx.fileVariables && has(ctx.fileVariables, name) ? ctx.fileVariables[name] : has(ctx.env, name) ? ctx.env[name] : undefined),
		// What a person typed, as a secret's value, is sent as it is: a `{{` in it is not a reference.
		literal: (name) => (ctx.answers !== undefined && has(ctx.answers, name)) || (ctx.secretNames?.has(name) ?? false),
		...(ctx.properties ? { property: propertyReader(ctx.properties) } : {}),
	};
}

/**
 * Makes an absolute URL of what the user wrote: `localhost:8080/x` or `example.com/x`
 * mean http://; a path alone cannot be sent (there is no base URL but `{{base_url}}`).
 */
export function absoluteUrl(written: string): { ok: true; url: string } | { ok: false; reason: string } {
	const trimmed = written.trim();
	if (trimmed.startsWith("/")) return { ok: false, reason: `it has no host: write it absolute (e.g. {{base_url}}${trimmed}), or add a Host: header or a host variable` };
	const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
	let url: URL;
	try {
		url = new URL(withScheme);
	} catch {
		return { ok: false, reason: "it is not a URL" };
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: `unsupported scheme "${url.protocol}" (use http or https)` };
	url.hash = "";
	return { ok: true, url: url.href };
}

/** Why a block cannot run: its first error, with its 1-based note line. */
export function invalidBlock(block: NoteBlock): RunError {
	const first = block.problems.find((p) => p.severity === "error");
	return { code: "invalid_block", message: first ? `Line ${first.line + 1}: ${first.message}` : "This block cannot run" };
}

/**
 * Resolves a parsed http block into the request to send. Never sends literal `{{...}}`:
 * any unresolved reference makes the whole preparation fail, naming the reference.
 */
export function prepareRequest(block: NoteBlock, ctx: PrepareContext): Preparation {
	const http = block.kind === "http" ? block.http : null;
	if (!http || !block.runnable || !http.method) return { ok: false, error: invalidBlock(block), notRun: [] };
	const sources = referenceSources(ctx);
	// Built-ins are recorded so that the masked copy below shows the same $uuid, $timestamp…
	const builtins: Array<Lookup | undefined> = [];
	// Auth references stand for tokens, `$dotenv` ones for what is kept out of the vault's text: masked wherever the request is shown, as secrets are.
	const authUsed = new Set<string>();
	const resolved = resolveMessage(http, {
		...sources,
		builtin: (inner) => {
			const found = sources.builtin(inner);
			builtins.push(found);
			if (parseAuthReference(inner) || isDotenvReference(inner)) authUsed.add(inner.trim());
			return found;
		},
	});
	const { parts } = resolved;

	const errors = parts.flatMap((p) => p.errors).map((e) => {
		const name = /^\{\{\s*(.+?)\s*\}\}$/.exec(e.reference)?.[1];
		return name && ctx.unsetSecrets?.has(name) ? { ...e, message: failureText("unset_secret", e.reference) } : e;
	});
	if (errors.length > 0) {
		const notRun = [...new Set(errors.map((e) => e.notRunAlias).filter((a): a is string => a !== undefined))];
		return {
			ok: false,
			error: { code: "unresolved_reference", message: errors[0].message, ...(errors.length > 1 ? { detail: errors.map((e) => e.message).join("\n") } : {}) },
			notRun,
		};
	}
	const shaped = shapeRequest(
		{ method: http.method, url: resolved.url, headers: resolved.headers, body: resolved.body },
		{ hostVariable: hostVariable(sources), graphql: resolved.graphql, graphqlVariables: resolved.graphqlVariables },
	);
	if (!shaped.ok) return { ok: false, error: { code: shaped.code, message: shaped.message }, notRun: [] };
	const { url, headers, body } = shaped.request;
	for (const [name, value] of headers) {
		if (!isHttpToken(name)) return { ok: false, error: failedError("invalid_token", `header name "${name}"`), notRun: [] };
		if (/[\r\n\0]/.test(value)) return { ok: false, error: failedError("invalid_token", `header "${name}" value contains a line break`), notRun: [] };
	}
	const absolute = absoluteUrl(url);
	if (!absolute.ok) return { ok: false, error: failedError("invalid_url", absolute.reason, url.trim()), notRun: [] };

	const envSnapshot: Record<string, string> = {};
	const aliasesUsed = new Set<string>();
	for (const p of parts) {
		for (const [k, v] of p.variablesUsed) envSnapshot[k] = v;
		for (const a of p.aliasesUsed) aliasesUsed.add(a);
	}
	return {
		ok: true,
		request: {
			method: shaped.request.method,
			url: absolute.url,
			headers,
			body,
			...(resolved.fileParts ? { fileParts: resolved.fileParts } : {}),
			...(shaped.clientCert ? { clientCert: shaped.clientCert } : {}),
			...(http.noClientCert ? { noClientCert: true } : {}),
			followRedirects: !http.noRedirect,
			...(http.noCookieJar ? { noCookieJar: true } : {}),
			timeoutMs: (block.kind === "http" ? block.info.tokens.timeout : undefined) ?? ctx.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
			...(usesSecret(parts, ctx.secretNames) || authUsed.size > 0 ? { masked: maskedCopy(http, sources, builtins, ctx.secretNames ?? new Set(), authUsed) } : {}),
		},
		envSnapshot,
		aliasesUsed,
	};
}

interface ResolvedMessage {
	url: string;
	headers: Array<[string, string]>;
	body: string;
	/** The GraphQL query and variables resolved, when the body is GraphQL. */
	graphql: HttpBlock["graphql"];
	graphqlVariables: string | null;
	/** The body's text and `< file` parts, resolved; absent without file parts. */
	fileParts?: FilePart[];
	parts: Resolution[];
}

/** The message of a block with every reference resolved, and the resolution of each part. */
/** httpyac's `host` variable with its references resolved, as `@host = {{oauthHost}}` in its examples. */
function hostVariable(sources: ReferenceSources): string | undefined {
	const raw = sources.variable("host");
	return raw === undefined ? undefined : resolveTemplate(raw, sources).value;
}

function resolveMessage(http: HttpBlock, sources: ReferenceSources): ResolvedMessage {
	const parts: Resolution[] = [];
	const resolve = (text: string): string => {
		const r = resolveTemplate(text, sources);
		parts.push(r);
		return r.value;
	};
	const url = resolve(http.url);
	const headers: Array<[string, string]> = http.headers.map((h) => [resolve(h.name), resolve(h.value)]);
	const g = http.graphql;
	if (g) {
		const graphql = { ...g, query: resolve(g.query) };
		return { url, headers, body: "", graphql, graphqlVariables: g.variables === null ? null : resolve(g.variables), parts };
	}
	if (!http.bodyParts.some((p) => p.kind === "file")) return { url, headers, body: resolve(http.body), graphql: null, graphqlVariables: null, parts };
	// Each part resolved once, so a built-in ($timestamp in a multipart boundary) is the same in the shown body and on the wire.
	const fileParts = http.bodyParts.map((p): FilePart => (p.kind === "text" ? { kind: "text", text: resolve(p.text) } : { kind: "file", path: resolve(p.path), resolveReferences: p.resolveReferences, encoding: p.encoding }));
	const body = fileParts.map((p) => (p.kind === "text" ? p.text : `<${p.resolveReferences ? `@${p.encoding ?? ""}` : ""} ${p.path}`)).join("");
	return { url, headers, body, fileParts, graphql: null, graphqlVariables: null, parts };
}

function usesSecret(parts: readonly Resolution[], secretNames: ReadonlySet<string> | undefined): boolean {
	return secretNames !== undefined && secretNames.size > 0 && parts.some((p) => [...p.variablesUsed.keys()].some((k) => secretNames.has(k)));
}

/**
 * The request resolved a second time with each secret replaced by a marker that every later
 * step (URL normalisation, percent-encoding) leaves as it is; the marker then becomes `•••`.
 * So a secret is masked by where it was substituted, in whatever form it went on the wire —
 * never by searching for its value (which misses encoded forms and hides look-alikes).
 */
function maskedCopy(http: HttpBlock, sources: ReferenceSources, builtins: ReadonlyArray<Lookup | undefined>, secretNames: ReadonlySet<string>, authRefs: ReadonlySet<string> = new Set()): MaskedRequest {
	// One marker per secret (and per auth reference, named by what is inside its braces), so the copy can name each one ({{token}}) as well as hide it (•••).
	const nonce = Math.random().toString(36).slice(2, 12);
	const names = [...secretNames, ...authRefs];
	const markerOf = (name: string) => `rbsecret${nonce}x${names.indexOf(name)}x`;
	let next = 0;
	const replay: ReferenceSources = {
		builtin: (inner) => {
			const recorded = builtins[next++];
			return authRefs.has(inner.trim()) && recorded?.ok ? { ok: true, value: markerOf(inner.trim()) } : recorded;
		},
		alias: (path) => sources.alias(path),
		note: sources.note,
		variable: (name) => (secretNames.has(name) ? markerOf(name) : sources.variable(name)),
		literal: (name) => secretNames.has(name) || (sources.literal?.(name) ?? false),
	};
	const r = resolveMessage(http, replay);
	const shaped = shapeRequest({ method: http.method ?? "GET", url: r.url, headers: r.headers, body: r.body }, { hostVariable: hostVariable(replay), graphql: r.graphql, graphqlVariables: r.graphqlVariables });
	const m = shaped.ok ? shaped.request : r;
	const cert = shaped.ok ? shaped.clientCert : null;
	const absolute = absoluteUrl(m.url);
	const url = absolute.ok ? absolute.url : m.url;
	const target = absolute.ok ? new URL(url).pathname + new URL(url).search : url;
	const unmark = (s: string, as: (name: string) => string) => names.reduce((out, name) => out.split(markerOf(name)).join(as(name)), s);
	const copy = (as: (name: string) => string) => ({ url: unmark(url, as), headers: m.headers.map(([n, v]): [string, string] => [unmark(n, as), unmark(v, as)]), body: unmark(m.body, as) });
	// A certificate's passphrase from a secret is written back as its reference, as a header's is.
	const certWithReferences = cert && (Object.fromEntries((Object.entries(cert) as Array<[keyof ClientCertFiles, string]>).map(([k, v]) => [k, unmark(v, (name) => `{{${name}}}`)])) as ClientCertFiles);
	return { ...copy(() => SECRET_MASK), target: unmark(target, () => SECRET_MASK), withReferences: { ...copy((name) => `{{${name}}}`), ...(certWithReferences ? { clientCert: certWithReferences } : {}) } };
}

/** The aliases a block's references name (whatever their state), for run-all ordering. */
export function referencedAliases(block: NoteBlock, aliases: ReadonlySet<string>): string[] {
	const names = new Set<string>();
	for (const r of block.references) {
		if (r.kind !== "alias") continue;
		const alias = r.inner.split(".")[0];
		if (aliases.has(alias)) names.add(alias);
	}
	return [...names];
}
