import { splitLines, isBlank } from "./lines";
import { HTTP_METHODS, normalizeMethod, type HttpMethod } from "./methods";
import { aliasToken, displayToken, enumToken, timeoutToken } from "./info";
import { defineKind, type ContentAlias } from "./kind";
import { error, type BlockProblem } from "./problems";
import { findReferences, isHttpToken } from "./references";

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
	| "handler"; // JetBrains `> {% %}`, `< {% %}`, `>>`, `<>` lines: kept, never sent

export interface HttpLine {
	text: string;
	eol: "" | "\n" | "\r\n";
	kind: HttpLineKind;
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
	/** Line of the request line, or -1. */
	requestLine: number;
	problems: BlockProblem[];
}

const COMMENT = /^[ \t]*(#|\/\/)/;
const QUERY_CONTINUATION = /^[ \t]*[?&]/;
const SCRIPT_START = /^[ \t]*[<>][ \t]*\{%/;
const HANDLER_LINE = /^[ \t]*(>>!?|<>)[ \t]/;
const VERSION = /^(.*?)[ \t]+(HTTP\/\d(?:\.\d)?)$/i;

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

/** Reads `METHOD URL [HTTP/x.y]`, or a bare URL meaning GET. */
export function parseRequestLine(line: string): RequestLine {
	const trimmed = line.trim();
	const [first, ...restWords] = trimmed.split(/[ \t]+/);
	const rest = trimmed.slice(first.length).trim();
	const method = normalizeMethod(first);
	const withVersion = (s: string): [string, string | null] => {
		const v = VERSION.exec(s);
		return v ? [v[1].trim(), v[2].toUpperCase()] : [s, null];
	};
	if (method) {
		if (!rest) {
			return { method, methodWritten: first, url: "", httpVersion: null, problem: `Missing URL after ${method}`, code: "missing_url" };
		}
		const [url, httpVersion] = withVersion(rest);
		return { method, methodWritten: first, url, httpVersion, problem: null, code: null };
	}
	if (restWords.length > 0 && !/^HTTP\/\d/i.test(restWords[0] ?? "")) {
		const unknown = (code: "unknown_method" | "invalid_method", what: string): RequestLine => ({
			method: null,
			methodWritten: first,
			url: rest,
			httpVersion: null,
			problem: `${what} method "${first}": use one of ${HTTP_METHODS.join(", ")}`,
			code,
		});
		if (/^[A-Za-z]+$/.test(first)) return unknown("unknown_method", "Unknown");
		// `G@T http://x` is a mistyped method, not a URL with a space (DESIGN.md §3).
		if (!URL_START.test(first)) return unknown("invalid_method", "Invalid");
	}
	const [url, httpVersion] = withVersion(trimmed);
	return { method: "GET", methodWritten: null, url, httpVersion, problem: null, code: null };
}

function directiveOf(comment: string): { name?: string; noRedirect?: boolean } {
	const text = comment.replace(COMMENT, "").trim();
	const name = /^@name[ \t]+(\S+)\s*$/.exec(text);
	if (name) return { name: name[1] };
	if (/^@no-redirect\b/.test(text)) return { noRedirect: true };
	return {};
}

/** Marks JetBrains script blocks (`> {% ... %}` over one or more lines) starting at line i; returns the next line. */
function consumeScript(lines: HttpLine[], i: number, problems: BlockProblem[]): number {
	let j = i;
	for (; j < lines.length; j++) {
		lines[j].kind = "handler";
		const text = j === i ? lines[j].text.replace(SCRIPT_START, "") : lines[j].text;
		if (text.includes("%}")) return j + 1;
	}
	problems.push(error("unclosed_handler", "Handler script `{%` is not closed with `%}`", i));
	return j;
}

/**
 * Parses the text of an http block (the fence content). Never throws: every problem
 * becomes an entry of `problems` with the line it is on.
 */
export function parseHttpBlock(text: string): HttpBlock {
	const lines: HttpLine[] = splitLines(text).map((l) => ({ text: l.text, eol: l.eol, kind: "body" }));
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
		requestLine: -1,
		problems: [],
	};
	const problems = block.problems;
	let i = 0;
	// Lead: blank lines, comments and pre-request scripts before the request line.
	while (i < lines.length && block.requestLine === -1) {
		const line = lines[i];
		if (isBlank(line.text)) {
			line.kind = "blank";
			i++;
		} else if (COMMENT.test(line.text)) {
			line.kind = "comment";
			applyDirective(block, line.text);
			i++;
		} else if (SCRIPT_START.test(line.text)) {
			i = consumeScript(lines, i, problems);
		} else {
			readRequestLine(block, i);
			i++;
		}
	}
	if (block.requestLine === -1) {
		const onlyBlank = lines.every((l) => l.kind === "blank");
		problems.push(
			onlyBlank
				? error("empty_block", "The block is empty: write a request line such as GET https://example.com", 0)
				: error("missing_request_line", "No request line: write METHOD URL, e.g. GET https://example.com", 0),
		);
		return block;
	}
	i = readHead(block, i);
	readBody(block, i);
	return block;
}

function applyDirective(block: HttpBlock, comment: string): void {
	const d = directiveOf(comment);
	if (d.name !== undefined && block.nameDirective === null) block.nameDirective = d.name;
	if (d.noRedirect) block.noRedirect = true;
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
	return /^[ \t]*/.exec(text)?.[0].length ?? 0;
}

/** Query continuations, headers and comments up to the first empty line; returns the first body line. */
function readHead(block: HttpBlock, start: number): number {
	const { lines, problems } = block;
	let i = start;
	while (i < lines.length) {
		const line = lines[i];
		if (isBlank(line.text)) {
			line.kind = "separator";
			return i + 1;
		}
		if (COMMENT.test(line.text)) {
			line.kind = "comment";
			applyDirective(block, line.text);
		} else if (SCRIPT_START.test(line.text)) {
			i = consumeScript(lines, i, problems);
			continue;
		} else if (HANDLER_LINE.test(line.text)) {
			line.kind = "handler";
		} else if (QUERY_CONTINUATION.test(line.text) && block.headers.length === 0) {
			line.kind = "query";
			block.url += line.text.trim();
		} else {
			readHeader(block, i);
		}
		i++;
	}
	return i;
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
	if (findReferences(name).length === 0 && !isHttpToken(name)) {
		block.problems.push(error("invalid_header", `Invalid HTTP token: header name "${name}"`, i, indentOf(line.text)));
	}
	block.headers.push({ name, value: line.text.slice(colon + 1).trim(), line: i });
}

function readBody(block: HttpBlock, start: number): void {
	const { lines, problems } = block;
	const kept: HttpLine[] = [];
	let sawHandler = false;
	let i = start;
	while (i < lines.length) {
		const line = lines[i];
		if (SCRIPT_START.test(line.text)) {
			sawHandler = true;
			i = consumeScript(lines, i, problems);
			continue;
		}
		if (HANDLER_LINE.test(line.text)) {
			sawHandler = true;
			line.kind = "handler";
		} else {
			line.kind = "body";
			kept.push(line);
		}
		i++;
	}
	let body = kept.map((l, k) => l.text + (k < kept.length - 1 ? l.eol : "")).join("");
	// Handler lines sit after the body, separated by blank lines that are not part of it.
	if (sawHandler) body = body.replace(/(\r?\n[ \t]*)+$/, "");
	block.body = body;
}

/** Reproduces the block text from its lines: byte-exact for an unmodified block. */
export function serializeHttpBlock(block: Pick<HttpBlock, "lines">): string {
	return block.lines.map((l) => l.text + l.eol).join("");
}

/** The request as a form editor sees it; serialized back as canonical HTTP-message text. */
export interface CanonicalRequest {
	/** Comment and directive lines of the head, as written (e.g. "# @name login"). */
	comments: string[];
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
		method: block.method,
		url: block.url,
		httpVersion: block.httpVersion,
		headers: block.headers.map((h) => [h.name, h.value]),
		body: block.body,
		handlers: block.lines.filter((l) => l.kind === "handler").map((l) => l.text),
	};
}

/**
 * Canonical HTTP-message text: comments, `METHOD URL [version]`, `Name: value` headers,
 * then an empty line and the body when there is one, then handler lines.
 */
export function serializeCanonical(req: CanonicalRequest, eol: "\n" | "\r\n" = "\n"): string {
	const head = [...req.comments, `${req.method} ${req.url}${req.httpVersion ? ` ${req.httpVersion}` : ""}`];
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

/** The http block kind: an HTTP message (DESIGN.md §3). */
export const httpKind = defineKind({
	language: "http",
	tokens: [aliasToken, timeoutToken, displayToken, editModeToken],
	parse(content) {
		const model = parseHttpBlock(content);
		return { model, problems: model.problems, alias: nameAlias(model) };
	},
});
