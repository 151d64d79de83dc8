/**
 * The websocket block: ```` ```http ```` with `WEBSOCKET url` (JetBrains, kulala), `WS`/`WSS`
 * (httpyac) or a bare `ws://`/`wss://` URL; handshake headers, an empty line, then the messages
 * separated by lines `===`, `=== wait-for-server` waiting for one server message before the next
 * (docs/streams.md). A GRAPHQL subscription is a websocket block too: its operation is the one
 * message, sent over graphql-transport-ws. Pure, never throws.
 */
import { aliasToken, displayToken, timeoutToken } from "./info";
import { defineKind } from "./kind";
import type { BlockProblem } from "./problems";
import { streamAlias } from "./sse";
import { durationToken, maxMessagesToken, parseStreamRequest, STREAM_REFERENCES, streamProtocolOf, type StreamRequest } from "./stream-request";

/** What a websocket block does after connecting, in order. */
export type WsStep =
	/** Send this text (references unresolved). `line`: its first line in the content. */
	| { kind: "text"; text: string; line: number }
	/** `< ./file`: send the file's bytes as one binary message. */
	| { kind: "file"; path: string; line: number }
	/** `=== wait-for-server`: wait for one message from the server. */
	| { kind: "wait"; line: number };

export interface WebsocketBlock extends StreamRequest {
	steps: WsStep[];
	/** Whether the block waits for the server at all: then its last wait satisfied closes it (code 1000). */
	waits: boolean;
}

const SEPARATOR = /^===[ \t]*$/;
const WAIT = /^===[ \t]+wait-for-server[ \t]*$/;
const FILE = /^[ \t]*<[ \t]+(\S.*?)[ \t]*$/;

/** The messages and waits after the head, from the lines the http parser left as body. */
export function websocketSteps(stream: StreamRequest): { steps: WsStep[]; problems: BlockProblem[] } {
	const { lines } = stream.request;
	const steps: WsStep[] = [];
	const problems: BlockProblem[] = [];
	if (stream.graphql) return { steps, problems };
	let text: string[] = [];
	let start = -1;
	const flush = () => {
		// Blank lines around a message set it off from the separators; they are not sent.
		while (text.length > 0 && text[text.length - 1].trim() === "") text.pop();
		let lead = 0;
		while (lead < text.length && text[lead].trim() === "") lead++;
		if (lead < text.length) steps.push({ kind: "text", text: text.slice(lead).join("\n"), line: start + lead });
		text = [];
		start = -1;
	};
	// Only the body holds body and file lines: it starts after the empty line, or at a `< file` line or a JSON
	// opening right after the headers.
	for (let k = stream.request.requestLine + 1; k < lines.length; k++) {
		const line = lines[k];
		if (line.kind === "file" || line.kind === "body") {
			if (WAIT.test(line.text)) {
				flush();
				steps.push({ kind: "wait", line: k });
			} else if (SEPARATOR.test(line.text)) flush();
			else if (line.kind === "file" && FILE.test(line.text)) {
				// A `< file` line is a message of its own, ending the text before it.
				flush();
				steps.push({ kind: "file", path: (FILE.exec(line.text) as RegExpExecArray)[1], line: k });
			} else {
				if (start === -1) start = k;
				text.push(line.text);
			}
		}
	}
	flush();
	return { steps, problems };
}

/** WebSocket: a handshake, then messages both ways until the stream ends. */
export const websocketKind = defineKind({
	language: "websocket",
	fence: "http",
	tokens: [aliasToken, timeoutToken, maxMessagesToken, durationToken, displayToken],
	claims: (content, lines) => streamProtocolOf(content, lines) === "websocket",
	parse(content) {
		const stream = parseStreamRequest(content);
		const { steps, problems } = websocketSteps(stream);
		const model: WebsocketBlock = { ...stream, steps, waits: steps.some((s) => s.kind === "wait") };
		return { model, problems: [...stream.request.problems, ...problems], alias: streamAlias(stream.request) };
	},
	referenceSuffixes: STREAM_REFERENCES,
	head: (model) => model.request,
	// Its messages can do anything: it keeps its place in a parallel run.
	changesState: () => true,
});
