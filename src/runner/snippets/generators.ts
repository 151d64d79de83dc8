import type { Prepared, SnippetOptions, SnippetWriter } from "../kind-runner";
import type { PreparedRequest } from "../request";
import { clientCertValue } from "../../blocks/client-cert";
import { curlClientCertArgs, refuseClientCert } from "./client-cert";
import { onlyFile, snippetBody, type SnippetBody } from "./file-body";
import { assertExportable, combinedHeaders, hasHeader, jsString, pyString, shellQuote } from "./quote";

/**
 * Snippet generators of http blocks (docs/export.md), and the `.http` file every kind writes
 * into. All synchronous: the UI calls them inside the click or
 * key handler, right before `navigator.clipboard.writeText`, so the user gesture stays open.
 * Correctness rule: running the snippet with the real tool sends the same method, URL,
 * headers and body bytes as the plugin (tests/integration/runner/snippets prove it per tool). A body
 * with `< file` parts reads its files when the snippet runs, by the path `locate` gives.
 * Other kinds write their own formats in their rooms, from these (src/runner/block-runners.ts).
 */

/** The formats of an http block, as its registry line lists them. */
export type HttpFormat = "curl" | "fetch" | "python" | "httpie" | "http";

export type { SnippetOptions };

export interface CurlOptions extends SnippetOptions {
	/** "Send as cURL": write the response to this file (for large downloads). */
	output?: string;
	/** `-N`: print the body as it arrives, not when curl's buffer fills (an event stream). */
	unbuffered?: boolean;
}

/** POSIX shell that writes a file body to stdout, for tools that read the body from stdin. */
function shellBody(body: SnippetBody): string {
	return `{ ${body.map((c) => (c.kind === "text" ? `printf '%s' ${shellQuote(c.text)}` : `cat -- ${shellQuote(c.path)}`)).join("; ")}; }`;
}

const ASKS_FOR_COMPRESSION = /\b(gzip|deflate|br|zstd)\b/i;

/** curl: `-X` only when curl would not pick the method itself; the body byte for byte. */
export function toCurl(req: PreparedRequest, opts: CurlOptions = {}): string {
	assertExportable(req.headers);
	const files = snippetBody(req, opts.locate);
	const file = files && onlyFile(files);
	const args: string[] = ["curl"];
	if (opts.unbuffered) args.push("-N");
	const hasBody = req.body !== "";
	if (req.method === "HEAD") args.push("--head");
	else if (hasBody ? req.method !== "POST" : req.method !== "GET") args.push("-X", req.method);
	if (/[[\]{}]/.test(req.url)) args.push("--globoff");
	args.push(shellQuote(req.url));
	for (const [n, v] of req.headers) args.push("-H", shellQuote(v === "" ? `${n};` : `${n}: ${v}`));
	if (hasBody) {
		// --data-* would add a form Content-Type the plugin never sends: remove it unless the block sets one.
		if (!hasHeader(req.headers, "content-type")) args.push("-H", shellQuote("Content-Type:"));
		if (files) {
			// --data-binary @file sends the bytes as they are; several parts are piped in, in order.
			args.push("--data-binary", file === null ? "@-" : shellQuote(`@${file}`));
		} else {
			// --data-raw sends the text as is: no @file reading, no newline stripping.
			args.push("--data-raw", shellQuote(req.body));
		}
	}
	const encoding = req.headers.find(([n]) => n.toLowerCase() === "accept-encoding")?.[1];
	if (encoding && ASKS_FOR_COMPRESSION.test(encoding)) args.push("--compressed");
	if (req.followRedirects) args.push("--location");
	args.push(...curlClientCertArgs(req, opts.locate));
	if (opts.output) args.push("--output", shellQuote(opts.output));
	return files && file === null ? `${shellBody(files)} | ${args.join(" ")}` : args.join(" ");
}

/** A script for browsers and Node ≥ 18: prints the status and the body. */
export function toFetch(req: PreparedRequest, opts: SnippetOptions = {}): string {
	assertExportable(req.headers);
	refuseClientCert(req, "fetch");
	const files = snippetBody(req, opts.locate);
	const init: string[] = [`method: ${jsString(req.method)}`];
	// fetch joins repeated header names with ", " (one line per name on the wire).
	if (req.headers.length > 0) {
		init.push(`headers: [\n${combinedHeaders(req.headers)
			.map(([n, v]) => `      [${jsString(n)}, ${jsString(v)}]`)
			.join(",\n")},\n    ]`);
	}
	// Bytes, not a string: fetch would add "Content-Type: text/plain" to a string body.
	// A file body reads its files with node:fs: that script is for Node only.
	const chunk = (c: SnippetBody[number]) => (c.kind === "text" ? `new TextEncoder().encode(${jsString(c.text)})` : `require("node:fs").readFileSync(${jsString(c.path)})`);
	if (files) init.push(`body: ${files.length === 1 ? chunk(files[0]) : `Buffer.concat([${files.map(chunk).join(", ")}])`}`);
	else if (req.body !== "") init.push(`body: new TextEncoder().encode(${jsString(req.body)})`);
	init.push(`redirect: ${jsString(req.followRedirects ? "follow" : "manual")}`);
	return [
		"(async () => {",
		`  const response = await fetch(${jsString(req.url)}, {`,
		init.map((l) => `    ${l},`).join("\n"),
		"  });",
		"  console.log(response.status, response.statusText);",
		"  console.log(await response.text());",
		"})();",
	].join("\n");
}

/** Python `requests`: the body sent as UTF-8 bytes exactly; repeated headers joined with ", ". */
export function toPython(req: PreparedRequest, opts: SnippetOptions = {}): string {
	assertExportable(req.headers);
	refuseClientCert(req, "Python");
	const files = snippetBody(req, opts.locate);
	const lines = files ? ["from pathlib import Path", "", "import requests", ""] : ["import requests", ""];
	const headers = combinedHeaders(req.headers);
	if (headers.length > 0) lines.push(`headers = {\n${headers.map(([n, v]) => `    ${pyString(n)}: ${pyString(v)},`).join("\n")}\n}`);
	const chunk = (c: SnippetBody[number]) => (c.kind === "text" ? `${pyString(c.text)}.encode("utf-8")` : `Path(${pyString(c.path)}).read_bytes()`);
	if (files) lines.push(files.length === 1 ? `data = ${chunk(files[0])}` : `data = b"".join([\n${files.map((c) => `    ${chunk(c)},`).join("\n")}\n])`);
	else if (req.body !== "") lines.push(`data = ${pyString(req.body)}.encode("utf-8")`);
	const args = [pyString(req.method), pyString(req.url)];
	if (headers.length > 0) args.push("headers=headers");
	if (req.body !== "") args.push("data=data");
	args.push(`allow_redirects=${req.followRedirects ? "True" : "False"}`);
	lines.push(`response = requests.request(${args.join(", ")})`, "print(response.status_code, response.reason)", "print(response.text)");
	return lines.join("\n");
}

/** HTTPie (`http`): headers as `Name:value` items, the body with --raw, HTTPie's JSON defaults removed. */
export function toHttpie(req: PreparedRequest, opts: SnippetOptions = {}): string {
	assertExportable(req.headers);
	refuseClientCert(req, "HTTPie");
	const files = snippetBody(req, opts.locate);
	// A file body is HTTPie's stdin; otherwise stdin is ignored (HTTPie would wait on a terminal's).
	const args = files ? ["http"] : ["http", "--ignore-stdin"];
	if (req.followRedirects) args.push("--follow");
	args.push(req.method, shellQuote(req.url));
	for (const [n, v] of req.headers) args.push(shellQuote(v === "" ? `${n};` : `${n}:${v}`));
	if (req.body !== "") {
		// With --raw HTTPie would claim the body is JSON: send no Content-Type unless the block has one.
		if (!hasHeader(req.headers, "content-type")) args.push(shellQuote("Content-Type:"));
		if (!files) args.push("--raw", shellQuote(req.body));
	}
	if (!files) return args.join(" ");
	const file = onlyFile(files);
	return file === null ? `${shellBody(files)} | ${args.join(" ")}` : `${args.join(" ")} < ${shellQuote(file)}`;
}

/** One request of a `.http` file. */
export interface HttpFileEntry {
	request: PreparedRequest;
	name?: string | null;
	/** The request as its kind writes it (`SnippetWriter.httpFileLines`); absent, an http request's. */
	lines?: readonly string[];
}

/** An http request in a `.http` file: its redirect setting, request line, headers and body. */
export function httpRequestLines(req: PreparedRequest): string[] {
	const lines: string[] = [];
	if (!req.followRedirects) lines.push("# @no-redirect");
	lines.push(...certificateDirective(req), `${req.method} ${req.url}`);
	// REST Client and httpyac keep one value per header name: repeats are written joined.
	for (const [n, v] of combinedHeaders(req.headers)) lines.push(`${n}: ${v}`);
	lines.push(...certificateHeader(req));
	if (req.body !== "") lines.push("", req.body);
	return lines;
}

/** `# @no-client-cert`, written before the request line of a request (or a stream) that has it. */
export function certificateDirective(req: Pick<PreparedRequest, "noClientCert">): string[] {
	return req.noClientCert ? ["# @no-client-cert"] : [];
}

/** httpyac's pseudo-header, as the block wrote it, after the headers (its files relative to the note, beside which a `.http` file goes). */
export function certificateHeader(req: Pick<PreparedRequest, "clientCert">): string[] {
	return req.clientCert ? [`ClientCert: ${clientCertValue(req.clientCert)}`] : [];
}

// For stream-snippets.ts, through this module: client-cert.ts is part of this text module, and a
// module imported from two text modules would be bundled in both (the build refuses it).
export { refuseClientCert };

/**
 * A REST Client / JetBrains / httpyac compatible `.http` file, `###`-separated.
 * Values are literal (references already replaced by the values the plugin used). The format
 * cannot express repeated header lines (written joined with ", ") nor a body's trailing line breaks.
 */
export function toHttpFile(entries: readonly HttpFileEntry[]): string {
	return entries
		.map(({ request: req, name, lines }) => {
			assertExportable(req.headers);
			const head: string[] = [`### ${name ?? `${req.method} ${req.url}`}`];
			if (name) head.push(`# @name ${name}`);
			return [...head, ...(lines ?? httpRequestLines(req))].join("\n");
		})
		.join("\n\n") + "\n";
}

/** An http block's snippets (its registry line: src/runner/block-runners.ts). */
export const HTTP_SNIPPETS: SnippetWriter = {
	snippet(format, { request: req }, name, opts) {
		switch (format as HttpFormat) {
			case "curl":
				return toCurl(req, opts);
			case "fetch":
				return toFetch(req, opts);
			case "python":
				return toPython(req, opts);
			case "httpie":
				return toHttpie(req, opts);
			case "http":
				return toHttpFile([{ request: req, name }]);
		}
	},
	httpFileLines: (prepared: Prepared) => httpRequestLines(prepared.request),
};
