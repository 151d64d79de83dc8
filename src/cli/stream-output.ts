/**
 * How the CLI shows a stream block's run (docs/streams.md): each message as it arrives on a
 * terminal (direction, time since connect, SSE event and id, a preview), the close and the
 * counts on the block's line, and the `messages` array of `--json`.
 */
import type { NoteBlock } from "../blocks";
import { httpFields, type HttpView } from "../runner/http/http-run";
import { formatBytes, formatMs } from "../runner/response/format";
import type { BlockResult, RunSnapshot } from "../runner/result";
import { websocketUrl } from "../runner/stream/prepare-stream";
import { isStreamRun, type StreamMessage, type StreamRun } from "../runner/stream/stream-run";
import { shownRequest } from "../runner/request";
import type { KindOutput } from "./kind-output";

const PREVIEW_WIDTH = 120;

/** The block's request word as the peers write it. */
export function streamVerb(block: NoteBlock): string {
	if (block.kind === "sse") return "SSE";
	if (block.kind === "websocket") return block.websocket.graphql ? "GRAPHQL" : "WEBSOCKET";
	return "";
}

/** One message on one line: `← 12 ms tick#3 {"n": 3}`; binary as its size. */
export function messageLine(m: StreamMessage): string {
	const tag = [m.event, m.id ? `#${m.id}` : ""].join("");
	const text = m.binary ? `(binary, ${formatBytes(m.size)})` : m.data.replace(/\r?\n/g, " ⏎ ");
	const preview = text.length > PREVIEW_WIDTH ? `${text.slice(0, PREVIEW_WIDTH - 1)}…` : text;
	return `  ${m.direction === "received" ? "←" : "→"} ${formatMs(m.atMs).padStart(8)}  ${tag ? `${tag}  ` : ""}${preview}`;
}

/** What the block's line says of a stream after its status: the close and the counts. */
export function streamSummary(run: StreamRun): string {
	const close = run.close ? `closed ${run.close.code !== null ? `${run.close.code}${run.close.reason ? ` ${run.close.reason}` : ""} ` : ""}(${run.close.why.replace("_", " ")})` : "";
	const c = run.counts;
	return [close, `${c.received} received (${formatBytes(c.receivedBytes)})`, `${c.sent} sent (${formatBytes(c.sentBytes)})`].filter(Boolean).join(", ");
}

/** A stream's handshake as the http views read a run: its request, response, body and assertions. */
function handshake(run: RunSnapshot): HttpView {
	if (!isStreamRun(run)) return httpFields(run);
	return { ...httpFields(run), request: run.request, head: run.head, body: run.body, assertions: run.assertions };
}

/** `SSE https://…`, `WEBSOCKET wss://…`: the block's request word and the URL it dialled. */
function streamWhat(block: NoteBlock, result: BlockResult): string | null {
	if (!isStreamRun(result) || !result.request) return null;
	const shown = shownRequest(result.request);
	return `${streamVerb(block)} ${result.kind === "websocket" ? websocketUrl(shown) : shown.url}`;
}

/** How the CLI shows an sse or websocket block's run (`src/cli/kind-outputs.ts`). */
export const STREAM_OUTPUT: KindOutput = {
	exchange: handshake,
	what: streamWhat,
	more: (result) => (isStreamRun(result) ? [streamSummary(result)] : []),
	json: (result) => (isStreamRun(result) ? streamJson(result) : {}),
	live: (write) => new LiveMessages(write),
};

/** The stream part of a block's `--json`: its messages both ways, the close, the counts. */
export function streamJson(run: StreamRun): { messages: Array<Record<string, unknown>>; close: StreamRun["close"] | null; counts: StreamRun["counts"] } {
	const messages = run.messages.slice(0, run.counts.received + run.counts.sent).map((m) => ({
		direction: m.direction,
		atMs: Math.round(m.atMs * 10) / 10,
		...(m.binary ? { dataBase64: m.data } : { data: m.data }),
		size: m.size,
		...(m.event !== undefined ? { event: m.event } : {}),
		...(m.id !== undefined ? { id: m.id } : {}),
	}));
	return { messages, close: run.close ?? null, counts: run.counts };
}

/** Prints the messages of a stream that arrived since the last call, per block (the `run` command on a terminal). */
export class LiveMessages {
	private readonly printed = new Map<NoteBlock, number>();

	constructor(private readonly write: (s: string) => void) {}

	update(block: NoteBlock, snapshot: RunSnapshot): void {
		if (!isStreamRun(snapshot)) return;
		const upTo = snapshot.counts.received + snapshot.counts.sent;
		for (let k = this.printed.get(block) ?? 0; k < upTo; k++) this.write(`${messageLine(snapshot.messages[k])}\n`);
		this.printed.set(block, upTo);
	}
}
