/**
 * The conformance suite's comparisons: a corpus file as a note (one fence per request region,
 * as a user pastes them), our parse of a request against the peer's, and the bytes we send
 * against the bytes httpyac sent. Cases come from tests/interop/corpus.json, which
 * scripts/interop-corpus.mjs generates from ../shared/interop-corpus.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { HttpBlock, NoteBlock } from "../../src/blocks";
import { websocketUrl } from "../../src/runner/stream/prepare-stream";
import type { RecordedRequest } from "../support/servers";
import { TOOL_ADDED } from "../support/snippet-cases";

export type BodySignature = { kind: "none" } | { kind: "text"; text: string } | { kind: "parts"; parts: string[] } | { kind: string };

export interface PeerRequest {
	method: string;
	url: string;
	headers: Array<[string, string]>;
	body: BodySignature;
}

export interface SentRequest {
	method: string;
	url: string;
	headers: Array<[string, string]>;
	/** Base64. */
	body: string;
}

export interface CorpusFile {
	source: string;
	file: string;
	/** Where the file sits below the suite's root (the vault), beside the fixtures its requests read. */
	path: string;
	origin: string;
	/** The file with its hosts pointed at the recording server (`__PORT__` for its port). */
	text: string;
	regions: Array<{ start: number; end: number; request: boolean }>;
}

export interface CorpusCase {
	id: string;
	source: string;
	file: number;
	region: number;
	line: number;
	features: string[];
	/** Why the peers need JavaScript for this request, or null. */
	needsScripts: string | null;
	peer: PeerRequest;
	sent: SentRequest | null;
	sendError: string | null;
}

export interface Corpus {
	oracle: string;
	/** Stand-ins (tests/interop/files/<from>) for the files the requests read, placed at `at` below the root. */
	fixtures: Array<{ at: string; from: string }>;
	files: CorpusFile[];
	cases: CorpusCase[];
}

export function loadCorpus(): Corpus {
	return JSON.parse(readFileSync(join(__dirname, "corpus.json"), "utf8")) as Corpus;
}

/** A fence that no line of the content can close. */
function fenceFor(content: string): string {
	const longest = Math.max(2, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
	return "`".repeat(longest + 1);
}

/** The file as a note (`port` null keeps the `__PORT__` placeholder, as in the oracle's parse): every region (requests and the file's variable regions) in its own http fence, in order. */
export function noteOf(file: CorpusFile, port: number | null): string {
	const lines = (port === null ? file.text : file.text.split("__PORT__").join(String(port))).split("\n");
	return file.regions
		.map((r) => {
			// Blank lines before the next `###` separate requests; the peers do not send them (nor does `import`).
			const content = lines.slice(r.start, r.end + 1).join("\n").replace(/(\n[ \t]*)+$/, "");
			const fence = fenceFor(content);
			return `${fence}http\n${content}\n${fence}`;
		})
		.join("\n\n");
}

/** `< path` / `<@ path` lines, the way the peers write file parts. */
const FILE_LINE = /^[ \t]*(<(?:@[A-Za-z0-9_-]*)?)[ \t]+(\S.*?)[ \t]*$/;

/** What our parser read, in the oracle's terms. */
export function ourRequest(http: HttpBlock): PeerRequest {
	// httpyac's parse keeps a GraphQL query apart from the body: its body is the variables.
	if (http.graphql) {
		const vars = http.graphql.variables;
		return { method: http.method ?? "", url: http.url, headers: http.headers.map((h) => [h.name, h.value]), body: vars ? { kind: "text", text: vars } : { kind: "none" } };
	}
	const body: BodySignature =
		http.body === ""
			? { kind: "none" }
			: http.body.split("\n").some((l) => FILE_LINE.test(l) && !/^\s*<\s*\{%/.test(l))
				? { kind: "parts", parts: bodyParts(http.body) }
				: { kind: "text", text: http.body };
	return { method: http.method ?? "", url: http.url, headers: http.headers.map((h) => [h.name, h.value]), body };
}

/**
 * What our parser read of a stream block, in the oracle's terms: the peers read `WS`/`WEBSOCKET`/
 * `SSE` as the request's method, the URL as written (ws scheme kept) and the messages, `===` lines
 * included, as its body. Ours keeps the head as an http GET and the word apart.
 */
export function ourStreamRequest(block: Extract<NoteBlock, { kind: "sse" | "websocket" }>): PeerRequest {
	const model = block.kind === "sse" ? block.sse : block.websocket;
	const request = ourRequest(model.request);
	return { ...request, method: model.word?.toUpperCase() ?? request.method, url: block.kind === "websocket" ? websocketUrl(request) : request.url };
}

function bodyParts(body: string): string[] {
	const parts: string[] = [];
	let text: string[] = [];
	for (const line of body.split("\n")) {
		const m = FILE_LINE.exec(line);
		if (m && !line.includes("{%")) {
			if (text.length) parts.push(text.join("\n"));
			text = [];
			parts.push(`\u0000${m[1]} ${m[2]}`);
		} else {
			text.push(line);
		}
	}
	if (text.length) parts.push(text.join("\n"));
	return parts;
}

const squash = (s: string) => s.replace(/\s+/g, "");
const normBody = (s: string) => s.replace(/\r\n/g, "\n").replace(/\s+$/, "");

/** Null when our parse means the same request as the peer's, else what differs. */
export function parseDifference(ours: PeerRequest, peer: PeerRequest): string | null {
	if (ours.method !== peer.method) return `method ${ours.method || "(none)"} ≠ ${peer.method}`;
	if (squash(ours.url) !== squash(peer.url)) return `url ${JSON.stringify(ours.url)} ≠ ${JSON.stringify(peer.url)}`;
	const headers = (h: Array<[string, string]>) =>
		h
			.map(([n, v]) => `${n.toLowerCase()}: ${v.trim()}`)
			.sort()
			.join("\n");
	if (headers(ours.headers) !== headers(peer.headers)) return `headers ${JSON.stringify(headers(ours.headers))} ≠ ${JSON.stringify(headers(peer.headers))}`;
	const body = (b: BodySignature) => {
		if (b.kind === "none") return "";
		if ("text" in b) return normBody(b.text);
		if ("parts" in b)
			return b.parts
				.map((p) => (p.startsWith("\u0000") ? `[${p.slice(1)}]` : normBody(p).trim()))
				.filter((p) => p !== "")
				.join("|");
		return `(${b.kind})`;
	};
	const [a, b] = [body(ours.body), body(peer.body)];
	if (a !== b) return `body ${JSON.stringify(a.slice(0, 120))} ≠ ${JSON.stringify(b.slice(0, 120))}`;
	return null;
}

/** A date's punctuation as it reaches the wire: written, or percent-encoded in a URL (`+` for a space in a query). */
const SPACE = "(?: |\\+|%20)";
const COLON = "(?::|%3A)";
const PLUS = "(?:\\+|%2B)";
const DAY_OR_MONTH_NAME =
	/(?<![A-Za-z])(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Wed|Thu|Fri|Sat|Sun)(?![A-Za-z])/g;
/** The zone after an RFC 1123 time: GMT for `$datetime`, the machine's offset (either sign) for `$localDatetime`. */
const RFC1123_ZONE = new RegExp(`(\\d\\d${COLON}\\d\\d${COLON}\\d\\d${SPACE})(?:GMT|UTC|(?:-|${PLUS})\\d{4})`, "gi");
const ISO_8601 = new RegExp(`\\d{4}-\\d\\d-\\d\\dT\\d\\d${COLON}\\d\\d${COLON}\\d\\d(?:\\.\\d+)?(?:Z|(?:-|${PLUS})\\d\\d(?:${COLON})?\\d\\d)?`, "gi");

/**
 * Values that differ between any two runs (UUIDs, times, random numbers): masked in both
 * requests of a case that uses dynamic built-ins, so the rest must still match. A date is
 * masked in every form it is sent in (RFC 1123, ISO 8601, custom formats; in the URL,
 * percent-encoded, or in a header or body as written) and in any time zone: the day it was
 * made on is not compared. An RFC 1123 date keeps its separators, so how it was encoded still
 * is; an ISO 8601 one is masked whole, since the peers differ in writing milliseconds.
 */
function maskDynamic(s: string): string {
	return s
		.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
		.replace(ISO_8601, "<date>")
		.replace(RFC1123_ZONE, "$1<zone>")
		.replace(DAY_OR_MONTH_NAME, "<name>")
		.replace(/\d+/g, "0");
}

/**
 * httpyac keeps one cookie jar across the whole generator run (cookies written in one file's
 * requests reach later files): a cookie the block did not write is the jar's, compared by the
 * cookie-jar tests, not here.
 */
const JAR_HEADERS = new Set(["cookie"]);

/** The comparable view of a sent request: tool-added headers left out unless the block wrote them. */
export function comparableSent(r: SentRequest, written: ReadonlySet<string>, dynamic: boolean) {
	const mask = dynamic ? maskDynamic : (s: string) => s;
	const headers = r.headers
		.map(([n, v]) => [n.toLowerCase(), mask(v)] as [string, string])
		.filter(([n]) => written.has(n) || !(TOOL_ADDED.has(n) || JAR_HEADERS.has(n)))
		.map(([n, v]) => `${n}: ${v}`)
		.sort();
	return { method: r.method, url: mask(r.url), headers, body: mask(Buffer.from(r.body, "base64").toString("latin1")) };
}

export function fromRecorded(r: RecordedRequest, port: number): SentRequest {
	const unport = (v: string) => v.split(String(port)).join("__PORT__");
	return { method: r.method, url: unport(r.url), headers: r.headers.map(([n, v]) => [n, unport(v)]), body: Buffer.from(unport(r.body.toString("latin1")), "latin1").toString("base64") };
}

export interface Tally {
	parse: [number, number];
	bytes: [number, number];
}

export function percent([a, b]: [number, number]): string {
	return b === 0 ? "n/a" : `${((100 * a) / b).toFixed(1)} %`;
}
