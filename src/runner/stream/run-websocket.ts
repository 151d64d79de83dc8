import { failedError } from "../failures";
import { withFileParts } from "../file-parts";
import { withClientTls } from "../http/client-cert-files";
import type { KindRunner } from "../kind-runner";
import { referenceSources } from "../prepare";
import { DEFAULT_TIMEOUT_MS } from "../request";
import type { RunError } from "../result";
import { connectionInit, GRAPHQL_TRANSPORT_WS, onGraphqlFrame } from "./graphql-transport-ws";
import { binaryMessage, textMessage } from "./message-log";
import { prepareStream, resolveSteps, websocketUrl, type WebsocketNoteBlock } from "./prepare-stream";
import { readStreamPath, streamAssertions } from "./read-messages";
import { streamEnding, SYSTEM_TIMERS, type Timers } from "./stream-ending";
import { streamFailed } from "./failures";
import { StreamProgress, streamFailedBeforeStart, streamHistory } from "./stream-progress";
import type { StreamEnd, StreamResult, WebsocketRun } from "./stream-run";
import { defaultWebsocketTransport, type WebsocketTransport, type WsConnection } from "./ws-transport";
import type { TlsFor } from "../http/tls-options";

/** What the websocket runner takes from the host: its transport (default: `ws` where Node runs, else the browser's), timers for tests. */
export interface WebsocketDeps {
	transport?: WebsocketTransport;
	timers?: Timers;
	/** A wss server's `[tls.*]` of user.toml, for the default `ws` transport. */
	tls?: TlsFor;
}

/** What a caller may ask of a websocket block's run. */
export interface WebsocketRunRequest {
	/** Run without the block's headers where the transport cannot send them (the user confirmed on the block). */
	dropHeaders?: boolean;
}

declare module "../result" {
	interface KindDeps {
		websocket: WebsocketDeps;
	}
	interface KindOptions {
		websocket: WebsocketRunRequest;
	}
}

/** How long a close waits for the server's answer before the socket is dropped: Stop is felt within a second. */
const CLOSE_GRACE_MS = 500;

type Step = { kind: "text"; text: string } | { kind: "bytes"; bytes: Uint8Array } | { kind: "wait" };

/**
 * A websocket block (docs/streams.md): the handshake with the block's headers, its messages sent
 * in order (`=== wait-for-server` waiting for one server message each), the server's messages
 * kept, until the stream ends by one of its rules; after the last wait it closes with 1000. A
 * refused upgrade is the ordinary http response it is. Never cached; one history row.
 */
export const WEBSOCKET_RUNNER: KindRunner<WebsocketNoteBlock> = {
	async run(block, ctx) {
		const prepared = prepareStream(block, ctx.prepare);
		if (!prepared.ok) return streamFailedBeforeStart("websocket", prepared.error);
		const deps = ctx.deps.kinds?.websocket;
		const transport = deps?.transport ?? defaultWebsocketTransport(deps?.tls);
		if (!transport) return streamFailedBeforeStart("websocket", streamFailed("websocket_unavailable"));
		// The block's own certificate, read before the socket is made (a wss URL only); the browser's WebSocket cannot present one.
		const certified = prepared.request.clientCert ? await withClientTls(prepared.request, ctx.deps.files, ctx.execute.filePath) : prepared;
		if (!certified.ok) return streamFailedBeforeStart("websocket", certified.error);
		const clientTls = certified.request.clientTls;
		if (clientTls && transport.name !== "ws") return streamFailedBeforeStart("websocket", streamFailed("client_cert_not_sent"));
		const model = block.websocket;
		const written = model.request.headers.map((h) => h.name);
		const dropHeaders = ctx.execute.kindOptions?.websocket?.dropHeaders === true;
		if (!transport.sendsHeaders && written.length > 0 && !dropHeaders) return streamFailedBeforeStart("websocket", streamFailed("headers_not_sent", written.join(", ")));
		const steps = await readSteps(block, ctx);
		if (!steps.ok) return streamFailedBeforeStart("websocket", steps.error);

		const request = prepared.request;
		const now = ctx.deps.now ?? Date.now;
		const progress = new StreamProgress("websocket", request, transport.name, ctx.execute.onUpdate, now);
		const tokens = block.info.tokens;
		let connection: WsConnection | null = null;
		let closeCode: { code: number | null; reason: string } = { code: null, reason: "" };
		let refused: Partial<WebsocketRun> = {};
		let failure: RunError | undefined;
		let settle: () => void = () => undefined;
		const settled = new Promise<void>((resolve) => (settle = resolve));
		const ending = streamEnding(
			{ timeoutMs: tokens.timeout ?? ctx.prepare.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS, durationMs: tokens.duration, maxMessages: tokens.max_messages },
			(why) => {
				if (why === "server_closed" || why === "failed" || !connection) return settle();
				// We end it: a close frame with 1000, and the socket dropped if the server does not answer in time.
				closeCode = { code: 1000, reason: "" };
				connection.close(1000, "");
				const timers = deps?.timers ?? SYSTEM_TIMERS;
				const drop = timers.set(() => {
					connection?.terminate();
					settle();
				}, CLOSE_GRACE_MS);
				void settled.then(() => timers.clear(drop));
			},
			deps?.timers ?? SYSTEM_TIMERS,
		);
		const cancel = () => ending.end("cancelled");
		ctx.execute.signal?.addEventListener("abort", cancel);

		let next = 0;
		let open = false;
		const add = (message: Parameters<typeof progress.add>[0]): boolean => {
			if (progress.add(message)) return true;
			ending.end("body_too_large");
			return false;
		};
		const sendText = (text: string): boolean => {
			if (!open || !connection || ending.state.phase === "ended") return false;
			connection.send(text);
			return add(textMessage("sent", progress.sinceOpen(), text));
		};
		/** Sends the block's messages up to its next wait; after the last step of a block that waits, it closes. */
		const advance = () => {
			while (next < steps.steps.length && ending.state.phase !== "ended") {
				const step = steps.steps[next];
				if (step.kind === "wait") return;
				next++;
				if (step.kind === "text") sendText(step.text);
				else if (connection) {
					connection.send(step.bytes);
					add(binaryMessage("sent", progress.sinceOpen(), step.bytes));
				}
			}
			if (model.waits && next >= steps.steps.length) ending.end("steps_done");
		};
		const operation = model.graphql ? request.body : null;

		connection = transport.open(
			{
				url: websocketUrl(request),
				headers: dropHeaders && !transport.sendsHeaders ? [] : request.headers,
				protocols: operation !== null ? [GRAPHQL_TRANSPORT_WS] : [],
				cookies: request.noCookieJar ? undefined : ctx.deps.cookies,
				...(clientTls ? { clientTls } : {}),
				...(request.noClientCert ? { noClientCert: true } : {}),
			},
			{
				open(head) {
					open = true;
					progress.opened(head, { send: sendText });
					ending.opened();
					if (ending.state.phase === "ended") return;
					if (operation !== null) connection?.send(connectionInit());
					else advance();
				},
				message(data) {
					if (ending.state.phase === "ended") return;
					if (operation !== null && typeof data === "string") {
						const step = onGraphqlFrame(data, operation);
						if (step.kind === "send") {
							for (const frame of step.frames) connection?.send(frame);
							if (step.shown) add(textMessage("sent", progress.sinceOpen(), step.shown));
						} else if (step.kind === "next") {
							if (add(textMessage("received", progress.sinceOpen(), step.data))) ending.received(progress.log.counts.received);
						} else if (step.kind === "complete") ending.end("steps_done");
						else if (step.kind === "error") {
							failure = streamFailed("graphql_error", step.detail);
							ending.end("failed");
							connection?.close(1000, "");
						}
						return;
					}
					if (!add(typeof data === "string" ? textMessage("received", progress.sinceOpen(), data) : binaryMessage("received", progress.sinceOpen(), data))) return;
					ending.received(progress.log.counts.received);
					if (steps.steps[next]?.kind === "wait") {
						next++;
						advance();
					}
				},
				refused(head, body) {
					refused = { head, body };
					ending.end("server_closed");
				},
				closed(code, reason) {
					open = false;
					if (ending.state.phase !== "ended") closeCode = { code, reason };
					else if (closeCode.code === null) closeCode = { code, reason };
					ending.end(code === 1006 && progress.run.head ? "failed" : "server_closed");
					if (code === 1006 && !failure) failure = streamFailed("stream_broken", reason || undefined);
					settle();
				},
				error(message) {
					if (!progress.run.head && !refused.head) failure = failedError("connect_failed", message);
					else failure ??= streamFailed("stream_broken", message);
					if (!open) {
						ending.end("failed");
						settle();
					}
				},
			},
		);
		await settled;
		ctx.execute.signal?.removeEventListener("abort", cancel);
		const why: StreamEnd = ending.state.phase === "ended" ? ending.state.why : "server_closed";
		const result = progress.finish(why, progress.run.head ? "open" : "connecting", closeCode, { ...refused, ...(dropHeaders && !transport.sendsHeaders ? { droppedHeaders: written } : {}) }, failure);
		return finish(block, ctx, result, transport.name);
	},
	read: readStreamPath,
};

function finish(block: WebsocketNoteBlock, ctx: Parameters<KindRunner<WebsocketNoteBlock>["run"]>[1], result: StreamResult, transport: string): StreamResult {
	const lines = block.websocket.request.assertions.map((a) => ({ line: block.fence.startLine + 2 + a.line, text: a.text }));
	const checked = lines.length > 0 && result.head ? { ...result, assertions: streamAssertions(lines, result) } : result;
	ctx.deps.history?.record(streamHistory(block.websocket.graphql ? "GRAPHQL" : "WEBSOCKET", checked, ctx, transport));
	return checked;
}

/** The block's messages with their references resolved and `< file` messages read, before anything is sent. */
async function readSteps(block: WebsocketNoteBlock, ctx: Parameters<KindRunner<WebsocketNoteBlock>["run"]>[1]): Promise<{ ok: true; steps: Step[] } | { ok: false; error: RunError }> {
	const sources = referenceSources(ctx.prepare);
	const resolved = resolveSteps(block.websocket.steps, sources);
	if (!resolved.ok) return resolved;
	const steps: Step[] = [];
	for (const step of resolved.steps) {
		if (step.kind !== "file") {
			steps.push(step);
			continue;
		}
		const read = await withFileParts(
			{ method: "GET", url: "", headers: [], body: "", followRedirects: false, timeoutMs: 0, fileParts: [{ kind: "file", path: step.path, resolveReferences: false, encoding: null }] },
			sources,
			ctx.deps.files,
			ctx.execute.filePath,
		);
		if (!read.ok) return { ok: false, error: read.error };
		steps.push({ kind: "bytes", bytes: read.request.bodyBytes ?? new Uint8Array() });
	}
	return { ok: true, steps };
}
