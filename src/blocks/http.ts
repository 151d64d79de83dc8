import { isBlank } from "./lines";
import { BASIC_METHODS, normalizeMethod, type HttpMethod } from "./methods";
import { aliasToken, displayToken, enumToken, flagToken, timeoutToken } from "./info";
import { defineKind, type ContentAlias } from "./kind";
import { error, warning, type BlockProblem } from "./problems";
import { findReferences, isHttpToken } from "./references";
import { parseMemoryDirective, type PollDirective, type PropertyDirective } from "./memory-directives";

/** How an http block is edited: as text, or in the form editor. */
export type EditMode = "raw" | "form";

/** `mode=`: the http block's editor. */
export const editModeToken = enumToken("mode", ["raw", "form"] satisfies EditMode[]);

/** What a line of an http block is. */
export type HttpLineKind =
	| "blank" // before the request line
	| "comment" // `#` or `//` in the head
	| "request"
	| "query" // `?a=1` / `&b=2` continuation of the URL
	| "header"
	| "invalid" // a head line that is none of the above
	| "separator" // the empty line that ends the head
	| "body"
	| "handler" // JetBrains `> {% %}`, `< {% %}`, `> file`, `>>`, `<>` lines: kept, never sent
	| "variable" // `@name = value`: a file variable (docs/blocks.md)
	| "assertion" // `?? status == 200` (httpyac syntax)
	| "file" // `< path` / `<@ path`: a body part read from a file
	| "response"; // an example response (`HTTP/1.1 200 OK` and what follows) kept after the request, never sent

export interface HttpLine {
	text: string;
	eol: "" | "\n" | "\r\n";
	kind: HttpLineKind;
}

export interface FileVariable {
	name: string;
	value: string;
	line: number;
}

export type BodyPart =
	| { kind: "text"; text: string }
	/** `< path` (sent as is) or `<@ path` (references resolved); `encoding` from `<@latin1 path`. */
	| { kind: "file"; path: string; resolveReferences: boolean; encoding: string | null; line: number };

export interface GraphqlBody {
	query: string;
	/** The variables JSON text after the query, or null. */
	variables: string | null;
	operationName: string | null;
}

export interface HttpHeader {
	name: string;
	value: string;
	/** Line within the block. */
	line: number;
}

/**
 * A parsed http block. `lines` holds the text exactly as written, so serializing an
 * unmodified block reproduces it byte for byte; the other fields are the meaning.
 */
export interface HttpBlock {
	lines: HttpLine[];
	/** The method; GET for a bare-URL line; null when there is no valid request line. */
	method: HttpMethod | null;
	/** The method word as written, or null for a bare URL line. */
	methodWritten: string | null;
	/** The URL as written (references unresolved), with query continuation lines appended. */
	url: string;
	/** "HTTP/1.1" when written on the request line. */
	httpVersion: string | null;
	headers: HttpHeader[];
	/** The body to send (references unresolved): handler lines removed, no final line break. */
	body: string;
	/** `# @name x` / `// @name x`. */
	nameDirective: string | null;
	/** `# @no-redirect`. */
	noRedirect: boolean;
	/** `# @no-cookie-jar`. */
	noCookieJar: boolean;
	/** `# @no-client-cert` (httpyac): no client certificate from user.toml's `[tls]` for this request. */
	noClientCert: boolean;
	/** `# @property name = value` lines, in order: front matter set after a successful run. */
	properties: PropertyDirective[];
	/** `# @poll every= max= [unsafe]`: the block re-runs until its assertions pass. */
	poll: PollDirective | null;
	/** `@name = value` lines, in order (references in values unresolved). */
	variables: FileVariable[];
	/** The body split into text and `< file` parts; one text part (or none) without file lines. */
	bodyParts: BodyPart[];
	/** Set when the body is a GraphQL query (GRAPHQL method, `X-Request-Type: GraphQL`, or a `query {…}` body). */
	graphql: GraphqlBody | null;
	/** `?? subject op value` lines. */
	assertions: Array<{ line: number; text: string }>;
	/** Lines of scripts and handlers the peers run and we do not (reported as "scripts are not run"). */
	scriptLines: number[];
	/** Line of the request line, or -1. */
	requestLine: number;
	problems: BlockProblem[];
}

const COMMENT = /^[ \t]*(#|\/\/)/;
const BLOCK_COMMENT_START = /^[ \t]*\/\*/;
const QUERY_CONTINUATION = /^[ \t]*[?&]/;
/** `/path` continuing the URL (not `//`, a comment). */
const PATH_CONTINUATION = /^[ \t]*\/(?![/*])/;
const SCRIPT_START = /^[ \t]*[<>][ \t]*\{%/;
/** httpyac's JavaScript blocks: a line `{{` up to a line `}}`. */
const JS_BLOCK_START = /^[ \t]*\{\{[ \t]*$/;
/** JetBrains handler lines: `> ./handler.js`, `>> file`, `>>! file`, `<> previous-response`. */
const HANDLER_LINE = /^[ \t]*(>>!?|<>|>)[ \t]+\S/;
const VERSION = /^(.*?)[ \t]+(HTTP\/\d(?:\.\d)?)$/i;
const VARIABLE = /^[ \t]*@([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]?(.*)$/;
const ASSERTION = /^[ \t]*\?\?[ \t]*/;
/** `< path`, `<@ path`, `<@latin1 path` (REST Client's encoding). */
const FILE_LINE = /^[ \t]*<(@([A-Za-z0-9_-]*))?[ \t]+(\S.*?)[ \t]*$/;
/** Before the request line, `< ./script.js` is a pre-request script file (JetBrains, kulala): no body comes before the request. */
const PRE_REQUEST_FILE = /^[ \t]*<[ \t]+\S/;
/** kulala's `run #Request name`, `run ./other.http` and `import ./other.http`, before the request line. */
const KULALA_LINE = /^[ \t]*(run|import)[ \t]+(?:#\S|\S+\.(?:http|rest)\b)/;
/** An example response after the request (httpyac examples/http/requestAndResponse.http). */
const RESPONSE_LINE = /^HTTP\/\d(?:\.\d)?[ \t]+\d{3}\b/;
const GRAPHQL_START = /^[ \t]*(query|mutation|subscription|fragment)\b[^{]*\{/;

interface RequestLine {
	method: HttpMethod | null;
	methodWritten: string | null;
	url: string;
	httpVersion: string | null;
	problem: string | null;
	code: "unknown_method" | "invalid_method" | "missing_url" | null;
}

/**
 * A first word that can start a bare URL line: it has a scheme, a path, a port or a reference
 * (`https://x`, `/a`, `host:8080`, `{{base_url}}/x`), or is a dotted host name (`example.com`).
 */
const URL_START = /^(?:[^\s]*(?:\/|:|\{\{)|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$)/;

/** `HTTP/1.1` at the end of a request line or continuation line is the version, not URL. */
function splitVersion(s: string): [string, string | null] {
	const v = mayEndInVersion(s) ? VERSION.exec(s) : null;
	return v ? [v[1].trim(), v[2].toUpperCase()] : [s, null];
}

/** Whether `s` can end in ` HTTP/1` or ` HTTP/1.1` (a check before the pattern, which most lines fail). */
function mayEndInVersion(s: string): boolean {
	const n = s.length;
	if (!isDigit(s.charCodeAt(n - 1))) return false;
	const slash = s.charCodeAt(n - 2) === 46 /* . */ && isDigit(s.charCodeAt(n - 3)) ? n - 4 : n - 2;
	return s.charCodeAt(slash) === 47 /* / */ && (s.charCodeAt(slash - 4) | 32) === 104 /* h */;
}

function isDigit(c: number): boolean {
	return c >= 48 && c <= 57;
}

const HTTP_WORD = /HTTP\/\d/iy;
const METHOD_WORD = /^[A-Za-z-]+$/;

/** Reads `METHOD URL [HTTP/x.y]`, or a bare URL meaning GET. */
export function parseRequestLine(line: string): RequestLine {
	const trimmed = line.trim();
	// The first word and where the next starts, as `trimmed.split(/[ \t]+/)` would give them.
	let end = 0;
	while (end < trimmed.length && !isSpaceOrTab(trimmed.charCodeAt(end))) end++;
	let next = end;
	while (next < trimmed.length && isSpaceOrTab(trimmed.charCodeAt(next))) next++;
	const first = end === trimmed.length ? trimmed : trimmed.slice(0, end);
	const rest = next === trimmed.length ? "" : trimmed.slice(next).trim();
	const method = normalizeMethod(first);
	if (method) {
		if (!rest) {
			return { method, methodWritten: first, url: "", httpVersion: null, problem: `Missing URL after ${method}`, code: "missing_url" };
		}
		const [url, httpVersion] = splitVersion(rest);
		return { method, methodWritten: first, url, httpVersion, problem: null, code: null };
	}
	HTTP_WORD.lastIndex = next;
	if (end < trimmed.length && !HTTP_WORD.test(trimmed)) {
		const unknown = (code: "unknown_method" | "invalid_method", what: string): RequestLine => ({
			method: null,
			methodWritten: first,
			url: rest,
			httpVersion: null,
			problem: `${what} method "${first}": use one of ${BASIC_METHODS.join(", ")}`,
			code,
		});
		if (METHOD_WORD.test(first)) return unknown("unknown_method", "Unknown");
		// `G@T http://x` is a mistyped method, not a URL with a space (docs/blocks.md).
		if (!URL_START.test(first)) return unknown("invalid_method", "Invalid");
	}
	const [url, httpVersion] = splitVersion(trimmed);
	return { method: "GET", methodWritten: null, url, httpVersion, problem: null, code: null };
}

function isSpaceOrTab(c: number): boolean {
	return c === 32 || c === 9;
}

const NAME_DIRECTIVE = /^@name[ \t]*=?[ \t]*(\S+)\s*$/;
const NO_REDIRECT = /^@no-redirect\b/;
const NO_COOKIE_JAR = /^@no-cookie-jar\b/;
const NO_CLIENT_CERT = /^@no-client-cert\b/;
/** `# @prompt name [description]` (REST Client, httpyac, kulala): asked when the block runs (prompts.ts). */
const PROMPT = /^@prompt[ \t]+([A-Za-z_][A-Za-z0-9_.-]*)/;

function directiveOf(comment: string): { name?: string; noRedirect?: boolean; noCookieJar?: boolean; noClientCert?: boolean; prompt?: string } {
	const text = comment.replace(COMMENT, "").trim();
	const name = NAME_DIRECTIVE.exec(text);
	if (name) return { name: name[1] };
	if (NO_REDIRECT.test(text)) return { noRedirect: true };
	if (NO_COOKIE_JAR.test(text)) return { noCookieJar: true };
	if (NO_CLIENT_CERT.test(text)) return { noClientCert: true };
	const prompt = PROMPT.exec(text);
	if (prompt) return { prompt: prompt[1] };
	return {};
}

/** Marks JetBrains script blocks (`> {% ... %}` over one or more lines) starting at line i; returns the next line. */
function consumeScript(block: HttpBlock, i: number): number {
	const { lines, problems } = block;
	block.scriptLines.push(i);
	let j = i;
	for (; j < lines.length; j++) {
		lines[j].kind = "handler";
		const text = j === i ? lines[j].text.replace(SCRIPT_START, "") : lines[j].text;
		if (text.includes("%}")) return j + 1;
	}
	problems.push(error("unclosed_handler", "Handler script `{%` is not closed with `%}`", i));
	return j;
}

/** Marks an httpyac `{{ … }}` script block starting at line i; returns the next line. */
function consumeJsBlock(block: HttpBlock, i: number): number {
	block.scriptLines.push(i);
	for (let j = i; j < block.lines.length; j++) {
		block.lines[j].kind = "handler";
		if (j > i && /^[ \t]*\}\}[ \t]*$/.test(block.lines[j].text)) return j + 1;
	}
	block.problems.push(error("unclosed_handler", "Script `{{` is not closed with a line `}}`", i));
	return block.lines.length;
}

/** Marks a C-style block comment (slash-star to star-slash) starting at line i (one or more lines); returns the next line. */
function consumeBlockComment(lines: HttpLine[], i: number): number {
	for (let j = i; j < lines.length; j++) {
		lines[j].kind = "comment";
		if (lines[j].text.includes("*/", j === i ? lines[j].text.indexOf("/*") + 2 : 0)) return j + 1;
	}
	return lines.length;
}

/**
 * Parses the text of an http block (the fence content). Never throws: every problem
 * becomes an entry of `problems` with the line it is on. `lines`, when given, are the text's
 * lines (a fence's `contentLines`): the text is not split again.
 */
export function parseHttpBlock(text: string, lines?: readonly string[]): HttpBlock {
	const block = parseLines(text, lines);
	// Never dropped silently (docs/blocks.md): each script or handler the peers would run is reported where it is written.
	for (let k = 0; k < block.scriptLines.length; k++) block.problems.push(warning("script_not_run", SCRIPT_NOT_RUN, block.scriptLines[k]));
	return block;
}

/** Shown on every line that starts a script or handler (`> {% %}`, `< {% %}`, `> file.js`, `>> file`, `{{ }}`). */
export const SCRIPT_NOT_RUN = "Scripts are not run: this line stays in the note and is never sent";

function parseLines(text: string, given: readonly string[] | undefined): HttpBlock {
	const starts: number[] = [];
	const lines = given && given.length > 0 ? linesOf(text, given, starts) : httpLines(text, starts);
	const block: HttpBlock = {
		lines,
		method: null,
		methodWritten: null,
		url: "",
		httpVersion: null,
		headers: [],
		body: "",
		nameDirective: null,
		noRedirect: false,
		noCookieJar: false,
		noClientCert: false,
		properties: [],
		poll: null,
		variables: [],
		bodyParts: [],
		graphql: null,
		assertions: [],
		scriptLines: [],
		requestLine: -1,
		problems: [],
	};
	const problems = block.problems;
	let i = 0;
	// Lead: blank lines, comments, file variables and pre-request scripts before the request line.
	while (i < lines.length && block.requestLine === -1) {
		const line = lines[i];
		const first = line.text.charCodeAt(0);
		const lead = first > 32 ? first : leadOf(line.text);
		if (lead === -1) {
			line.kind = "blank";
			i++;
		} else if (lead === SLASH && BLOCK_COMMENT_START.test(line.text)) {
			i = consumeBlockComment(lines, i);
		} else if ((lead === HASH || lead === SLASH) && COMMENT.test(line.text)) {
			line.kind = "comment";
			applyDirective(block, line.text, i);
			i++;
		} else if (lead === AT && VARIABLE.test(line.text)) {
			readVariable(block, i);
			i++;
		} else if ((lead === LT || lead === GT) && SCRIPT_START.test(line.text)) {
			i = consumeScript(block, i);
		} else if (lead === LT && PRE_REQUEST_FILE.test(line.text)) {
			line.kind = "handler";
			block.scriptLines.push(i);
			i++;
		} else if (lead === BRACE && JS_BLOCK_START.test(line.text)) {
			i = consumeJsBlock(block, i);
		} else if ((lead === LOWER_R || lead === LOWER_I) && KULALA_LINE.test(line.text)) {
			readKulalaLine(block, i, lead);
			i++;
		} else {
			readRequestLine(block, i);
			i++;
		}
	}
	if (block.requestLine === -1) {
		// A fence of `@name = value` lines only defines variables for the blocks below.
		if (block.variables.length > 0) return block;
		const onlyBlank = lines.every((l) => l.kind === "blank");
		problems.push(
			onlyBlank
				? error("empty_block", "The block is empty: write a request line such as GET https://example.com", 0)
				: error("missing_request_line", "No request line: write METHOD URL, e.g. GET https://example.com", 0),
		);
		return block;
	}
	i = readHead(block, i);
	readBody(block, i, text, starts);
	return block;
}

const AT = 64;
const BRACE = 123;
const BRACKET = 91;
const GT = 62;
const HASH = 35;
const LT = 60;
const QUESTION = 63;
const AMPERSAND = 38;
const SLASH = 47;
const LOWER_I = 105;
const LOWER_R = 114;

/**
 * The code of a line's first character that is not a space or tab, or -1 for a blank line.
 * Every line pattern here starts `^[ \t]*` and a given character: a line is tested only against
 * the patterns its first character allows (each line of a note passes here).
 */
function leadOf(text: string): number {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c !== 32 && c !== 9) return c;
	}
	return -1;
}

/** HttpLines of a text whose lines are given (a fence's content lines), with each line's offset in `starts`. */
function linesOf(text: string, given: readonly string[], starts: number[]): HttpLine[] {
	const lines = new Array<HttpLine>(given.length);
	let from = 0;
	for (let k = 0; k < given.length; k++) {
		const lineText = given[k];
		const end = from + lineText.length;
		const eol = end >= text.length ? "" : text.charCodeAt(end) === 13 ? "\r\n" : "\n";
		lines[k] = { text: lineText, eol, kind: "body" };
		starts.push(from);
		from = end + eol.length;
	}
	return lines;
}

/** The block's lines, as `splitLines` splits them, straight into HttpLines (a parse reads every line of a note). */
function httpLines(text: string, starts: number[]): HttpLine[] {
	const lines: HttpLine[] = [];
	let from = 0;
	for (;;) {
		const nl = text.indexOf("\n", from);
		starts.push(from);
		if (nl === -1) {
			lines.push({ text: from === 0 ? text : text.slice(from), eol: "", kind: "body" });
			return lines;
		}
		const cr = nl > from && text.charCodeAt(nl - 1) === 13;
		lines.push({ text: text.slice(from, cr ? nl - 1 : nl), eol: cr ? "\r\n" : "\n", kind: "body" });
		from = nl + 1;
	}
}

function readVariable(block: HttpBlock, i: number): void {
	const line = block.lines[i];
	const m = VARIABLE.exec(line.text) as RegExpExecArray;
	line.kind = "variable";
	block.variables.push({ name: m[1], value: m[2].trim(), line: i });
}

/**
 * A kulala line that runs or imports other requests: kept in the text (a form-mode edit keeps it
 * before the request line), never sent, and said where it is written rather than read as an
 * unknown method. The block still runs, without the requests it names.
 */
function readKulalaLine(block: HttpBlock, i: number, lead: number): void {
	const line = block.lines[i];
	line.kind = "handler";
	const column = indentOf(line.text);
	if (lead === LOWER_R) {
		block.problems.push(warning("run_not_read", 'Run lines (kulala) are not read: run that request yourself first; a {{alias.response…}} reference to it says when it has not run', i, column));
	} else {
		block.problems.push(warning("import_not_read", 'Import lines (kulala) are not read: bring that file\'s requests into a note with the command "Import .http file"', i, column));
	}
}

function applyDirective(block: HttpBlock, comment: string, line: number): void {
	const d = directiveOf(comment);
	// Asked when the block runs (src/blocks/prompts.ts reads the line from the block's head).
	if (d.prompt !== undefined) return;
	if (d.name === undefined && comment.includes("@")) applyMemoryDirective(block, comment, line);
	if (d.name !== undefined && block.nameDirective === null) block.nameDirective = d.name;
	if (d.noRedirect) block.noRedirect = true;
	if (d.noCookieJar) block.noCookieJar = true;
	if (d.noClientCert) block.noClientCert = true;
}

/** `# @property` and `# @poll` (memory-directives.ts); one `@poll` and one `@property` per name. */
function applyMemoryDirective(block: HttpBlock, comment: string, line: number): void {
	const text = comment.replace(COMMENT, "");
	const column = comment.length - text.length + (text.length - text.trimStart().length);
	const found = parseMemoryDirective(text.trim(), line, column);
	if (found === null) return;
	if (found.kind === "problem") block.problems.push(found.problem);
	else if (found.kind === "poll") {
		if (block.poll === null) block.poll = found.directive;
		else block.problems.push(error("invalid_directive", `@poll is written more than once (first on line ${block.poll.line + 1} of the block)`, line, column));
	} else if (block.properties.some((p) => p.name === found.directive.name)) {
		block.problems.push(error("invalid_directive", `@property ${found.directive.name} is set twice: the block would write one of them over the other`, line, column));
	} else block.properties.push(found.directive);
}

function readRequestLine(block: HttpBlock, i: number): void {
	const line = block.lines[i];
	line.kind = "request";
	block.requestLine = i;
	const r = parseRequestLine(line.text);
	block.method = r.code === "unknown_method" || r.code === "invalid_method" ? null : r.method;
	block.methodWritten = r.methodWritten;
	block.url = r.url;
	block.httpVersion = r.httpVersion;
	if (r.problem && r.code) block.problems.push(error(r.code, r.problem, i, indentOf(line.text)));
}

function indentOf(text: string): number {
	let i = 0;
	while (i < text.length && isSpaceOrTab(text.charCodeAt(i))) i++;
	return i;
}

/**
 * URL continuations, headers and comments up to the first empty line (or a `< file` line or a
 * JSON opening, which is the body's first); returns the first body line.
 * Before the first header, lines starting with `?`, `&` or `/` (JetBrains: any indented line)
 * continue the URL; `HTTP/1.1` at the end of the last one is the version.
 */
function readHead(block: HttpBlock, start: number): number {
	const { lines } = block;
	let i = start;
	while (i < lines.length) {
		const line = lines[i];
		const first = line.text.charCodeAt(0);
		const lead = first > 32 ? first : leadOf(line.text);
		if (lead === -1) {
			line.kind = "separator";
			return i + 1;
		}
		const continuesUrl = block.headers.length === 0 && !block.httpVersion && !((lead === HASH || lead === SLASH) && COMMENT_OR_BLOCK.test(line.text));
		if (lead === SLASH && BLOCK_COMMENT_START.test(line.text)) {
			i = consumeBlockComment(lines, i);
			continue;
		} else if ((lead === HASH || lead === SLASH) && COMMENT.test(line.text)) {
			line.kind = "comment";
			applyDirective(block, line.text, i);
		} else if ((lead === LT || lead === GT) && SCRIPT_START.test(line.text)) {
			i = consumeScript(block, i);
			continue;
		} else if ((lead === LT || lead === GT) && HANDLER_LINE.test(line.text) && !FILE_LINE.test(line.text)) {
			line.kind = "handler";
			block.scriptLines.push(i);
		} else if (lead === QUESTION && ASSERTION.test(line.text)) {
			line.kind = "assertion";
			block.assertions.push({ line: i, text: line.text.replace(ASSERTION, "").trim() });
		} else if (continuesUrl && continuesUrlLine(line.text, lead)) {
			line.kind = "query";
			const [part, version] = splitVersion(line.text.trim());
			block.url += part;
			if (version) block.httpVersion = version;
		} else if ((lead === LT && FILE_LINE.test(line.text)) || opensJson(line.text, lead)) {
			// No header starts with `<`, `[` or a lone `{`: as httpyac reads them, such a line right after the headers
			// begins the body (a forgotten empty line before a JSON body).
			return i;
		} else {
			readHeader(block, i);
		}
		i++;
	}
	return i;
}

/** A line opening a JSON array or object: `[`, or `{` that is not a `{{reference}}` (a header's name may be one). */
function opensJson(text: string, lead: number): boolean {
	if (lead === BRACKET) return true;
	return lead === BRACE && text.charCodeAt(text.indexOf("{") + 1) !== BRACE;
}

/** `?a=1`, `&b=2` and `/path` lines, and (JetBrains) any indented line without a colon. */
const COMMENT_OR_BLOCK = /^[ \t]*(#|\/\/|\/\*)/;
const INDENTED = /^[ \t]+\S/;

function continuesUrlLine(text: string, lead: number): boolean {
	if ((lead === QUESTION || lead === AMPERSAND) && QUERY_CONTINUATION.test(text)) return true;
	if (lead === SLASH && PATH_CONTINUATION.test(text)) return true;
	const first = text.charCodeAt(0);
	return isSpaceOrTab(first) && INDENTED.test(text) && !text.includes(":");
}

function readHeader(block: HttpBlock, i: number): void {
	const line = block.lines[i];
	const colon = line.text.indexOf(":");
	const name = colon > 0 ? line.text.slice(0, colon).trim() : "";
	if (!name) {
		line.kind = "invalid";
		block.problems.push(error("invalid_header", `Header line must look like "Name: value" (got "${line.text.trim()}")`, i, indentOf(line.text)));
		return;
	}
	line.kind = "header";
	// A name with references is checked once resolved (the runner's Invalid HTTP token rule).
	if (!isHttpToken(name) && !(name.includes("{{") && findReferences(name).length > 0)) {
		block.problems.push(error("invalid_header", `Invalid HTTP token: header name "${name}"`, i, indentOf(line.text)));
	}
	block.headers.push({ name, value: line.text.slice(colon + 1).trim(), line: i });
}

/**
 * The body: what follows the empty line, less what the peers do not send — `#`/`//` and
 * block comments (slash-star … star-slash) (JetBrains: "start any line with // or # to make it a comment line";
 * httpyac and kulala read them so too), handler scripts, `??` assertions and an example
 * response after the request. `< path` lines are file parts.
 */
function readBody(block: HttpBlock, start: number, text: string, starts: readonly number[]): void {
	const { lines } = block;
	/** Indices of the lines the body is made of. */
	const kept: number[] = [];
	let sawOmitted = false;
	let sawFile = false;
	let i = start;
	while (i < lines.length) {
		const line = lines[i];
		const first = line.text.charCodeAt(0);
		const lead = first > 32 ? first : leadOf(line.text);
		if (line.text.charCodeAt(0) === 72 /* H */ && RESPONSE_LINE.test(line.text)) {
			for (; i < lines.length; i++) lines[i].kind = "response";
			sawOmitted = true;
			break;
		}
		if ((lead === LT || lead === GT) && SCRIPT_START.test(line.text)) {
			sawOmitted = true;
			i = consumeScript(block, i);
			continue;
		}
		if (lead === BRACE && JS_BLOCK_START.test(line.text)) {
			sawOmitted = true;
			i = consumeJsBlock(block, i);
			continue;
		}
		if (lead === SLASH && BLOCK_COMMENT_START.test(line.text)) {
			sawOmitted = true;
			i = consumeBlockComment(lines, i);
			continue;
		}
		if ((lead === HASH || lead === SLASH) && COMMENT.test(line.text)) {
			line.kind = "comment";
			applyDirective(block, line.text, i);
		} else if (lead === AT && VARIABLE.test(line.text)) {
			// httpyac and kulala read `@name = value` anywhere between requests as a variable.
			sawOmitted = true;
			readVariable(block, i);
		} else if (lead === LT && FILE_LINE.test(line.text)) {
			line.kind = "file";
			sawFile = true;
			kept.push(i);
		} else if ((lead === LT || lead === GT) && HANDLER_LINE.test(line.text)) {
			sawOmitted = true;
			line.kind = "handler";
			block.scriptLines.push(i);
		} else if (lead === QUESTION && ASSERTION.test(line.text)) {
			sawOmitted = true;
			line.kind = "assertion";
			block.assertions.push({ line: i, text: line.text.replace(ASSERTION, "").trim() });
		} else {
			line.kind = "body";
			kept.push(i);
		}
		i++;
	}
	// Lines the peers leave out sit between body parts, set off by blank lines that are not part of it.
	let first = 0;
	let last = kept.length - 1;
	if (sawOmitted || kept.length < lines.length - start) {
		while (last >= first && isBlank(lines[kept[last]].text)) last--;
		while (last >= first && isBlank(lines[kept[first]].text) && someNotBody(lines, start, kept[first])) first++;
	}
	let body = "";
	if (last >= first && kept[last] - kept[first] === last - first) {
		// Consecutive lines (the common case): the body is the text they span, one slice.
		body = text.slice(starts[kept[first]], starts[kept[last]] + lines[kept[last]].text.length);
	} else {
		for (let k = first; k <= last; k++) body += k < last ? lines[kept[k]].text + lines[kept[k]].eol : lines[kept[k]].text;
	}
	block.body = body;
	// Without file lines the body is its one text part (the common case: no second copy of it).
	block.bodyParts = sawFile && last >= first ? bodyPartsOf(lines, kept.slice(first, last + 1)) : body ? [{ kind: "text", text: body }] : [];
	block.graphql = graphqlOf(block);
}

/** True when a line from `start` up to (not including) `end` is not a body line. */
function someNotBody(lines: readonly HttpLine[], start: number, end: number): boolean {
	for (let j = start; j < end; j++) if (lines[j].kind !== "body") return true;
	return false;
}

function bodyPartsOf(all: readonly HttpLine[], kept: readonly number[]): BodyPart[] {
	const parts: BodyPart[] = [];
	let text = "";
	kept.forEach((index, k) => {
		const l = all[index];
		const eol = k < kept.length - 1 ? l.eol : "";
		const m = l.kind === "file" ? FILE_LINE.exec(l.text) : null;
		if (m) {
			if (text) parts.push({ kind: "text", text });
			text = "";
			parts.push({ kind: "file", path: m[3], resolveReferences: m[1] !== undefined, encoding: m[2] || null, line: index });
			// The line break after a file part belongs to the text that follows (multipart framing).
			text = eol;
		} else {
			text += l.text + eol;
		}
	});
	if (text) parts.push({ kind: "text", text });
	return parts;
}

/**
 * GraphQL (REST Client `X-Request-Type: GraphQL`, kulala and httpyac `GRAPHQL` method or a body
 * starting with `query`/`mutation`/…): the query, then after an empty line the variables JSON.
 */
const REQUEST_TYPE = /^x-request-type$/i;
const GRAPHQL = /^graphql$/i;

function graphqlHeader(headers: readonly HttpHeader[]): boolean {
	for (let k = 0; k < headers.length; k++) if (REQUEST_TYPE.test(headers[k].name) && GRAPHQL.test(headers[k].value)) return true;
	return false;
}

function graphqlOf(block: HttpBlock): GraphqlBody | null {
	if (block.method !== "GRAPHQL" && !graphqlHeader(block.headers) && !GRAPHQL_START.test(block.body)) return null;
	if (block.bodyParts.some((p) => p.kind === "file")) return null;
	const body = block.body.replace(/\r\n/g, "\n");
	const split = /\n[ \t]*\n(?=[ \t]*\{)/.exec(body);
	const query = (split ? body.slice(0, split.index) : body).trim();
	const variables = split ? body.slice(split.index + split[0].length).trim() : null;
	if (!query) return null;
	const name = /^[ \t]*(?:query|mutation|subscription)[ \t]+([A-Za-z_][A-Za-z0-9_]*)/.exec(query);
	return { query, variables: variables || null, operationName: name ? name[1] : null };
}

/** Reproduces the block text from its lines: byte-exact for an unmodified block. */
export function serializeHttpBlock(block: Pick<HttpBlock, "lines">): string {
	return block.lines.map((l) => l.text + l.eol).join("");
}

/** The request as a form editor sees it; serialized back as canonical HTTP-message text. */
export interface CanonicalRequest {
	/** Comment and directive lines of the head, as written (e.g. "# @name login"). */
	comments: string[];
	/** Pre-request scripts before the request line (`< {% %}`, `< ./script.js`), kept there: after the body a `< path` would be a body file. */
	preRequest: string[];
	method: HttpMethod;
	url: string;
	httpVersion: string | null;
	headers: Array<[string, string]>;
	body: string;
	/** Handler lines kept after the body. */
	handlers: string[];
}

/** Extracts the editable request of a parsed block (null when it has no valid request line). */
export function toCanonicalRequest(block: HttpBlock): CanonicalRequest | null {
	if (!block.method) return null;
	return {
		comments: block.lines.filter((l) => l.kind === "comment").map((l) => l.text),
		preRequest: block.lines.filter((l, k) => l.kind === "handler" && k < block.requestLine).map((l) => l.text),
		method: block.method,
		url: block.url,
		httpVersion: block.httpVersion,
		headers: block.headers.map((h) => [h.name, h.value]),
		body: block.body,
		handlers: block.lines.filter((l, k) => l.kind === "handler" && k > block.requestLine).map((l) => l.text),
	};
}

/**
 * Canonical HTTP-message text: comments, pre-request scripts, `METHOD URL [version]`,
 * `Name: value` headers, then an empty line and the body when there is one, then handler lines.
 */
export function serializeCanonical(req: CanonicalRequest, eol: "\n" | "\r\n" = "\n"): string {
	const head = [...req.comments, ...req.preRequest, `${req.method} ${req.url}${req.httpVersion ? ` ${req.httpVersion}` : ""}`];
	for (const [name, value] of req.headers) head.push(`${name}: ${value}`);
	let text = head.join(eol);
	if (req.body !== "") text += eol + eol + req.body.replace(/\r?\n/g, eol);
	if (req.handlers.length > 0) text += eol + eol + req.handlers.join(eol);
	return text;
}

/** The block's dominant line break, for writing edits back in the same style. */
export function lineBreakOf(block: Pick<HttpBlock, "lines">): "\n" | "\r\n" {
	const crlf = block.lines.filter((l) => l.eol === "\r\n").length;
	const lf = block.lines.filter((l) => l.eol === "\n").length;
	return crlf > lf ? "\r\n" : "\n";
}

/** Where the first `@name` directive is written, for the note's alias rules. */
function nameAlias(block: HttpBlock): ContentAlias | null {
	if (block.nameDirective === null) return null;
	const line = block.lines.findIndex((l) => l.kind === "comment" && l.text.includes("@name"));
	return { name: block.nameDirective, directive: "@name", line, column: Math.max(0, block.lines[line].text.indexOf("@name")) };
}

/** The http block kind: an HTTP message (docs/blocks.md). */
/**
 * Methods that change nothing on the server (RFC 9110 §9.2.1 safe methods, and WebDAV's
 * read-only PROPFIND, REPORT and SEARCH): such blocks run side by side. GRAPHQL is a POST.
 */
const READ_ONLY_METHODS: ReadonlySet<HttpMethod> = new Set<HttpMethod>(["GET", "HEAD", "OPTIONS", "TRACE", "PROPFIND", "REPORT", "SEARCH"]);

export const httpKind = defineKind({
	language: "http",
	// `pin`: each successful run rewrites the response pinned under the block (docs/pins.md).
	tokens: [aliasToken, timeoutToken, displayToken, editModeToken, flagToken("pin")],
	parse(content, lines) {
		const model = parseHttpBlock(content, lines);
		return { model, problems: model.problems, alias: nameAlias(model) };
	},
	head: (model) => model,
	// A block that cannot run (no method) changes nothing.
	changesState: (model) => model.method !== null && !READ_ONLY_METHODS.has(model.method),
});
