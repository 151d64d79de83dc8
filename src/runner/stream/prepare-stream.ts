import { parseAuthReference, resolveTemplate, type HttpNoteBlock, type NoteBlock, type ReferenceSources, type WsStep } from "../../blocks";
import { prepareRequest, referenceSources, type PrepareContext, type Preparation } from "../prepare";
import type { PreparedRequest } from "../request";
import type { RunError } from "../result";

export type SseNoteBlock = Extract<NoteBlock, { kind: "sse" }>;
export type WebsocketNoteBlock = Extract<NoteBlock, { kind: "websocket" }>;
export type StreamNoteBlock = SseNoteBlock | WebsocketNoteBlock;

/**
 * The handshake request of a stream block, resolved as Run resolves an http block's (variables,
 * secrets and their masking, aliases, `timeout=`): the head is an http GET to the parser, and is
 * prepared as one. A websocket block's messages are not its body (each is resolved when sent);
 * a GraphQL subscription's operation is, as the JSON the first message carries.
 */
export function prepareStream(block: StreamNoteBlock, ctx: PrepareContext): Preparation {
	const model = block.kind === "sse" ? block.sse : block.websocket;
	const http = model.graphql ? model.request : { ...model.request, body: "", bodyParts: [], graphql: null };
	return prepareRequest({ ...block, kind: "http", http } as unknown as HttpNoteBlock, ctx);
}

/** An SSE request asks for an event stream unless the block asks otherwise; its masked copies too (their headers match the request's by position). */
export function sseRequest(request: PreparedRequest): PreparedRequest {
	if (hasHeader(request, "accept")) return request;
	const accept: [string, string] = ["Accept", "text/event-stream"];
	const m = request.masked;
	const masked = m ? { masked: { ...m, headers: [...m.headers, accept], withReferences: { ...m.withReferences, headers: [...m.withReferences.headers, accept] } } } : {};
	return { ...request, headers: [...request.headers, accept], ...masked };
}

/** A websocket step with its references resolved; a file step names its file (read when sent). */
export type ResolvedStep = { kind: "text"; text: string } | { kind: "file"; path: string } | { kind: "wait" };

/** The block's messages and waits with `{{…}}` resolved, as Run sends them. */
export function resolveSteps(steps: readonly WsStep[], sources: ReferenceSources): { ok: true; steps: ResolvedStep[] } | { ok: false; error: RunError } {
	const out: ResolvedStep[] = [];
	for (const step of steps) {
		if (step.kind === "wait") {
			out.push({ kind: "wait" });
			continue;
		}
		const resolved = resolveTemplate(step.kind === "text" ? step.text : step.path, sources);
		if (resolved.errors.length > 0) return { ok: false, error: { code: "unresolved_reference", message: resolved.errors[0].message } };
		out.push(step.kind === "text" ? { kind: "text", text: resolved.value } : { kind: "file", path: resolved.value });
	}
	return { ok: true, steps: out };
}

/** What export needs beyond the handshake request: the protocol as written and, for a websocket, its messages. */
declare module "../prepare" {
	interface KindPreparations {
		/** A stream block's protocol and resolved messages (export only; Run resolves its own). */
		stream: PreparedStream;
	}
}

export interface PreparedStream {
	protocol: "sse" | "websocket";
	/** The request line's first word as written (`WEBSOCKET`, `WSS`, `SSE`…), null for a bare `ws://` URL. */
	word: string | null;
	/** A GRAPHQL subscription (graphql-transport-ws): the request body is its operation. */
	graphql: boolean;
	steps: ResolvedStep[];
	/** The messages as a vault file may hold them, when they use a secret or an auth token: each stays its `{{reference}}`. */
	stepsForFile?: ResolvedStep[];
	/** Whether the block waits for the server: then it closes (1000) after its last step. */
	waits: boolean;
}

/**
 * A stream block as Run would start it now, for export: the handshake request (an SSE one with
 * the Accept header Run adds) and the stream's messages resolved.
 */
export function prepareStreamExport(block: StreamNoteBlock, ctx: PrepareContext): Preparation {
	const prepared = prepareStream(block, ctx);
	if (!prepared.ok) return prepared;
	if (block.kind === "sse") {
		const stream: PreparedStream = { protocol: "sse", word: block.sse.word, graphql: false, steps: [], waits: false };
		return { ...prepared, request: sseRequest(prepared.request), stream };
	}
	const model = block.websocket;
	const sources = referenceSources(ctx);
	const steps = resolveSteps(model.steps, sources);
	if (!steps.ok) return { ok: false, error: steps.error, notRun: [] };
	const forFile = stepsKeepingSecrets(model.steps, sources, ctx.secretNames ?? new Set());
	return { ...prepared, stream: { protocol: "websocket", word: model.word, graphql: model.graphql, steps: steps.steps, ...(forFile ? { stepsForFile: forFile } : {}), waits: model.waits } };
}

/**
 * The messages resolved again with each secret variable and auth token left as its reference,
 * as `requestForFile` leaves a request's; null when they use none. A secret is never resolved
 * further (`literal`), so its reference goes into the file as written.
 */
function stepsKeepingSecrets(steps: readonly WsStep[], sources: ReferenceSources, secretNames: ReadonlySet<string>): ResolvedStep[] | null {
	let kept = false;
	const keep = (inner: string): string => {
		kept = true;
		return `{{${inner}}}`;
	};
	const resolved = resolveSteps(steps, {
		...sources,
		builtin: (inner) => (parseAuthReference(inner) ? { ok: true, value: keep(inner.trim()) } : sources.builtin(inner)),
		variable: (name) => (secretNames.has(name) ? keep(name) : sources.variable(name)),
	});
	return kept && resolved.ok ? resolved.steps : null;
}

/** The stream as a file in the vault may hold it: each secret in its messages as its `{{reference}}` (the request: `requestForFile`). */
export function streamForFile(stream: PreparedStream): PreparedStream {
	const { stepsForFile, ...rest } = stream;
	return stepsForFile ? { ...rest, steps: stepsForFile } : rest;
}

/** The URL a WebSocket dials: the prepared http(s) URL with its ws scheme back. */
export function websocketUrl(request: Pick<PreparedRequest, "url">): string {
	return request.url.replace(/^http(s?):\/\//i, (_, s: string) => `ws${s}://`);
}

/** A header of the request, by name (case-insensitive). */
export function hasHeader(request: Pick<PreparedRequest, "headers">, name: string): boolean {
	const lower = name.toLowerCase();
	return request.headers.some(([n]) => n.toLowerCase() === lower);
}
