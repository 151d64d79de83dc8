import type { Prepared, SnippetWriter } from "../kind-runner";
import type { PreparedRequest } from "../request";
import type { PreparedStream, ResolvedStep } from "../stream/prepare-stream";
import { streamForFile, websocketUrl } from "../stream/prepare-stream";
import type { LocateFile } from "./file-body";
import { certificateDirective, certificateHeader, refuseClientCert, toCurl, toHttpFile } from "./generators";
import { assertExportable, combinedHeaders, ExportError, jsString, shellQuote } from "./quote";

/**
 * Snippets of the stream kinds (docs/export.md), their registry lines' writers
 * (src/runner/block-runners.ts): an SSE block as `curl -N`, a websocket block as `websocat` and
 * a Node script with `ws`, both as `.http` in the peers' syntax. The websocket snippets dial the
 * URL Run dials with the block's handshake headers and send its messages, references resolved,
 * in order.
 */

export type SseFormat = "curl" | "http";
export type WebsocketFormat = "websocat" | "ws" | "http";

/** The stream a stream kind's preparation adds (`prepareStreamExport`). */
function streamOf(prepared: Prepared): PreparedStream {
	if (!prepared.stream) throw new Error("a stream block was prepared without its stream");
	return prepared.stream;
}

const httpFileLines = (prepared: Prepared, forFile: boolean): string[] => httpFileStream(prepared.request, streamOf(prepared), forFile);

export const SSE_SNIPPETS: SnippetWriter = {
	snippet(format, prepared, name, opts) {
		switch (format as SseFormat) {
			case "curl":
				// -N: the events are printed as they arrive.
				return toCurl(prepared.request, { ...opts, unbuffered: true });
			case "http":
				return toHttpFile([{ request: prepared.request, name, lines: httpFileLines(prepared, false) }]);
		}
	},
	httpFileLines,
};

export const WEBSOCKET_SNIPPETS: SnippetWriter = {
	snippet(format, prepared, name, opts) {
		switch (format as WebsocketFormat) {
			case "websocat":
				return toWebsocat(prepared.request, streamOf(prepared));
			case "ws":
				return toNodeWs(prepared.request, streamOf(prepared), opts);
			case "http":
				return toHttpFile([{ request: prepared.request, name, lines: httpFileLines(prepared, false) }]);
		}
	},
	httpFileLines,
};

function assertWebsocket(stream: PreparedStream, tool: string): void {
	if (stream.protocol !== "websocket") throw new ExportError(`An SSE block exports as curl or .http, not ${tool}`, "sse_tool", { tool });
	// graphql-transport-ws needs its handshake frames answered in turn: only the .http export keeps it.
	if (stream.graphql) throw new ExportError(`A GraphQL subscription cannot be exported to ${tool}: export it as .http`, "subscription_tool", { tool });
}

/**
 * websocat: the messages piped in, one per line (NUL-separated when one holds a line break), `-n`
 * so the end of input does not close the socket before the server answers. websocat cannot wait
 * for the server nor send a file as one binary message: a block with `< file` is refused, and
 * its waits are not kept (the messages go out at once).
 */
export function toWebsocat(req: PreparedRequest, stream: PreparedStream): string {
	assertWebsocket(stream, "websocat");
	assertExportable(req.headers);
	refuseClientCert(req, "websocat");
	if (stream.steps.some((s) => s.kind === "file")) throw new ExportError("websocat cannot send a file as one binary message: export it as a Node ws script", "websocat_file");
	const texts = stream.steps.flatMap((s) => (s.kind === "text" ? [s.text] : []));
	const multiline = texts.some((t) => /[\r\n]/.test(t));
	if (multiline && texts.some((t) => t.includes("\0"))) throw new ExportError("A message holds both a line break and a NUL byte: websocat cannot separate it", "websocat_nul");
	const args = ["websocat"];
	if (texts.length > 0) args.push("-n");
	if (multiline) args.push("-0");
	for (const [n, v] of req.headers) args.push("-H", shellQuote(`${n}: ${v}`));
	args.push(shellQuote(websocketUrl(req)));
	if (texts.length === 0) return args.join(" ");
	return `printf ${multiline ? "'%s\\0'" : "'%s\\n'"} ${texts.map(shellQuote).join(" ")} | ${args.join(" ")}`;
}

export interface NodeWsOptions {
	/** The path the script reads for a `< file` message (absolute where the host knows it). */
	locate?: LocateFile;
}

/**
 * A Node script with `ws` that does what Run does: the messages in order, a `null` step waiting
 * for one server message, the socket closed (1000) after the last step of a block that waits.
 * Text messages go as text, `< file` messages as binary. Prints each server message.
 */
export function toNodeWs(req: PreparedRequest, stream: PreparedStream, opts: NodeWsOptions = {}): string {
	assertWebsocket(stream, "a Node ws script");
	assertExportable(req.headers);
	refuseClientCert(req, "a Node ws script");
	const step = (s: ResolvedStep): string => {
		if (s.kind === "wait") return "  null, // wait for one message from the server";
		if (s.kind === "text") return `  ${jsString(s.text)},`;
		return `  fs.readFileSync(${jsString(opts.locate?.(s.path) ?? s.path)}),`;
	};
	const lines: string[] = [];
	if (stream.steps.some((s) => s.kind === "file")) lines.push(`const fs = require("node:fs");`);
	lines.push(`const WebSocket = require("ws");`, "");
	const headers = combinedHeaders(req.headers);
	if (headers.length === 0) lines.push(`const socket = new WebSocket(${jsString(websocketUrl(req))});`);
	else {
		lines.push(
			`const socket = new WebSocket(${jsString(websocketUrl(req))}, {`,
			"  headers: {",
			...headers.map(([n, v]) => `    ${jsString(n)}: ${jsString(v)},`),
			"  },",
			"});",
		);
	}
	lines.push("const steps = [", ...stream.steps.map(step), "];", "let next = 0;", "function advance() {", "  while (next < steps.length && steps[next] !== null) socket.send(steps[next++]);");
	if (stream.waits) lines.push("  if (next === steps.length) socket.close(1000);");
	lines.push(
		"}",
		`socket.on("open", advance);`,
		`socket.on("message", (data, isBinary) => {`,
		"  console.log(isBinary ? `<binary, ${data.length} bytes>` : data.toString());",
		"  if (steps[next] === null) {",
		"    next++;",
		"    advance();",
		"  }",
		"});",
		`socket.on("close", (code, reason) => console.log("closed", code, reason.toString()));`,
		`socket.on("error", (error) => console.error(error.message));`,
	);
	return lines.join("\n");
}

/** A stream block in a `.http` file, as JetBrains, httpyac and kulala read it: the request line's word, then the messages. */
export function httpFileStream(req: PreparedRequest, given: PreparedStream, forFile = false): string[] {
	// A vault file never holds a secret's value: its messages keep their {{reference}}.
	const stream = forFile ? streamForFile(given) : given;
	const word = stream.graphql ? "GRAPHQL" : (stream.word?.toUpperCase() ?? "WEBSOCKET");
	const url = stream.protocol === "websocket" ? websocketUrl(req) : req.url;
	const lines = [...certificateDirective(req), `${word} ${url}`];
	for (const [n, v] of combinedHeaders(req.headers)) lines.push(`${n}: ${v}`);
	lines.push(...certificateHeader(req));
	if (stream.graphql) {
		// The body Run sends is `{query, variables}` JSON; the file holds the operation, then its variables.
		const { query, variables } = JSON.parse(req.body) as { query: string; variables?: unknown };
		lines.push("", query);
		if (variables !== undefined) lines.push("", JSON.stringify(variables, null, 2));
		return lines;
	}
	if (stream.steps.length > 0) lines.push("");
	let previous: ResolvedStep["kind"] | null = null;
	for (const s of stream.steps) {
		if (s.kind === "wait") lines.push("=== wait-for-server");
		else {
			// Two messages in a row are set apart by `===`; a wait line already parts them.
			if (previous !== null && previous !== "wait") lines.push("===");
			lines.push(s.kind === "text" ? s.text : `< ${s.path}`);
		}
		previous = s.kind;
	}
	return lines;
}
