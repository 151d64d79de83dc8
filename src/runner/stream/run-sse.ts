import { DEFAULT_TIMEOUT_MS } from "../request";
import type { KindRunner } from "../kind-runner";
import type { RunError } from "../result";
import type { Transport } from "../transport";
import { withClientTls } from "../http/client-cert-files";
import { textMessage } from "./message-log";
import { prepareStream, sseRequest, type SseNoteBlock } from "./prepare-stream";
import { readStreamPath, streamAssertions } from "./read-messages";
import { isEventStream, sseReader } from "./sse-events";
import { streamEnding, SYSTEM_TIMERS, type Timers } from "./stream-ending";
import { streamFailed } from "./failures";
import { StreamProgress, streamFailedBeforeStart, streamHistory } from "./stream-progress";
import type { StreamEnd, StreamResult } from "./stream-run";

/** What the sse runner may take from the host: timers, for tests that move time themselves. */
export interface SseDeps {
	timers?: Timers;
	/**
	 * The transport SSE streams through where the host's own cannot (the mobile app's requestUrl):
	 * fetch, which reads only what the server's CORS lets the app read.
	 */
	streamingTransport?: () => Transport;
}

declare module "../result" {
	interface KindDeps {
		sse: SseDeps;
	}
}

/** The transport's own bound, far beyond any stream: the stream's ending rules bound it instead. */
const NO_TRANSPORT_TIMEOUT = 2 ** 31 - 1;

/**
 * An sse block: a GET through the host's streaming transport, its `text/event-stream` read as
 * events while it streams, until the stream ends by one of its rules (docs/streams.md). A response
 * that is not an event stream (a 401, a 404) is kept as the ordinary http response it is.
 * Never cached; one history row.
 */
export const SSE_RUNNER: KindRunner<SseNoteBlock> = {
	async run(block, ctx) {
		const prepared = prepareStream(block, ctx.prepare);
		if (!prepared.ok) return streamFailedBeforeStart("sse", prepared.error);
		const own = ctx.deps.transport;
		const transport = own.streams ? own : (ctx.deps.kinds?.sse?.streamingTransport?.() ?? own);
		// Only a block naming a certificate waits to read it: the stream's clock starts in this task otherwise.
		const certified = prepared.request.clientCert ? await withClientTls(prepared.request, ctx.deps.files, ctx.execute.filePath) : prepared;
		if (!certified.ok) return streamFailedBeforeStart("sse", certified.error);
		// The run keeps the request without the certificate's key, which only the transport is given.
		const request = { ...sseRequest(prepared.request), timeoutMs: NO_TRANSPORT_TIMEOUT };
		const wire = certified.request.clientTls ? { ...request, clientTls: certified.request.clientTls } : request;
		const now = ctx.deps.now ?? Date.now;
		const progress = new StreamProgress("sse", request, transport.name, ctx.execute.onUpdate, now);
		const finish = (result: StreamResult): StreamResult => {
			const checked = block.sse.request.assertions.length > 0 && result.head ? { ...result, assertions: streamAssertions(noteLines(block), result) } : result;
			ctx.deps.history?.record(streamHistory("SSE", checked, ctx, transport.name));
			return checked;
		};
		if (!transport.streams) return finish(progress.finish("failed", "connecting", { code: null, reason: "" }, {}, streamFailed("stream_unsupported", `transport: ${transport.name}`)));

		const stop = new AbortController();
		const tokens = block.info.tokens;
		const ending = streamEnding(
			{ timeoutMs: tokens.timeout ?? ctx.prepare.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS, durationMs: tokens.duration, maxMessages: tokens.max_messages },
			() => stop.abort(),
			ctx.deps.kinds?.sse?.timers ?? SYSTEM_TIMERS,
		);
		const cancel = () => ending.end("cancelled");
		if (ctx.execute.signal?.aborted) cancel();
		ctx.execute.signal?.addEventListener("abort", cancel);
		let streaming = false;
		const reader = sseReader((event) => {
			if (ending.state.phase === "ended") return;
			if (!progress.add(textMessage("received", progress.sinceOpen(), event.data, event))) return ending.end("body_too_large");
			ending.received(progress.log.counts.received);
		});
		const outcome = await transport.send(wire, {
			signal: stop.signal,
			cookies: request.noCookieJar ? undefined : ctx.deps.cookies,
			onHeaders: (head) => {
				streaming = head.status >= 200 && head.status < 300 && isEventStream(head.headers);
				if (streaming) {
					progress.opened(head);
					ending.opened();
				}
			},
			onChunk: (chunk) => {
				if (streaming) reader.feed(chunk);
			},
		});
		ctx.execute.signal?.removeEventListener("abort", cancel);
		if (streaming && outcome.kind === "done") reader.end();

		const phase = progress.run.head ? "open" : "connecting";
		let why: StreamEnd;
		let failure: RunError | undefined;
		if (ending.state.phase === "ended") why = ending.state.why;
		else if (outcome.kind === "done") why = "server_closed";
		else if (outcome.kind === "cancelled") why = outcome.reason === "timeout" ? "timeout" : "cancelled";
		else {
			why = outcome.code === "body_too_large" ? "body_too_large" : "failed";
			// fetch in the app cannot tell a refused origin from an unreachable server: say what the fallback needs.
			failure = transport !== own && outcome.code === "connect_failed" ? streamFailed("stream_cors", outcome.detail) : { code: outcome.code, message: outcome.message, ...(outcome.detail !== undefined ? { detail: outcome.detail } : {}) };
		}
		ending.end(why);
		// Not an event stream: the whole response is kept, as an http block keeps it.
		const plain = outcome.kind === "done" && !streaming ? { head: outcome.head, body: outcome.body } : {};
		return finish(progress.finish(why, phase, { code: null, reason: "" }, plain, failure));
	},
	read: readStreamPath,
};

/** The block's `??` lines with their 1-based note lines. */
function noteLines(block: SseNoteBlock): Array<{ line: number; text: string }> {
	return block.sse.request.assertions.map((a) => ({ line: block.fence.startLine + 2 + a.line, text: a.text }));
}
