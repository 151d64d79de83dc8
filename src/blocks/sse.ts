/**
 * The sse block: ```` ```http ```` with `SSE url` or `EVENTSOURCE url` (httpyac), headers, and
 * `??` assertions on the messages (docs/streams.md). Pure, never throws.
 */
import { aliasToken, displayToken, timeoutToken } from "./info";
import { defineKind, type ContentAlias } from "./kind";
import { durationToken, maxMessagesToken, parseStreamRequest, STREAM_REFERENCES, streamProtocolOf, type StreamRequest } from "./stream-request";
import type { HttpBlock } from "./http";

export type SseBlock = StreamRequest;

/** Where the first `@name` directive is written, for the note's alias rules (as http reads it). */
export function streamAlias(request: HttpBlock): ContentAlias | null {
	if (request.nameDirective === null) return null;
	const line = request.lines.findIndex((l) => l.kind === "comment" && l.text.includes("@name"));
	return { name: request.nameDirective, directive: "@name", line, column: Math.max(0, request.lines[line].text.indexOf("@name")) };
}

/** Server-Sent Events: a GET whose response is read as events until the stream ends. */
export const sseKind = defineKind({
	language: "sse",
	fence: "http",
	tokens: [aliasToken, timeoutToken, maxMessagesToken, durationToken, displayToken],
	claims: (content, lines) => streamProtocolOf(content, lines) === "sse",
	parse(content) {
		const model: SseBlock = parseStreamRequest(content);
		return { model, problems: model.request.problems, alias: streamAlias(model.request) };
	},
	referenceSuffixes: STREAM_REFERENCES,
	head: (model) => model.request,
	// An event stream only reads: such blocks run side by side.
	changesState: () => false,
});
