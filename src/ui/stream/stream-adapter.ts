import type { RunSnapshot } from "../../runner/result";
import type { NoteSession } from "../../runner/session";
import { isActive } from "../../runner/state-machine";
import { isStreamRun, type StreamRun } from "../../runner/stream/stream-run";
import type { StreamPanelModel, StreamSnapshot, StreamTiming } from "./stream-model";

/**
 * A refused upgrade (a 401 or 404 answering the handshake, with its body): the ordinary http
 * response it is, shown in the http tabs rather than the stream panel.
 */
export function isRefusedUpgrade(run: StreamRun): boolean {
	return run.head !== undefined && run.head.status !== 101 && run.body !== undefined;
}

/** Whether the stream panel shows this run (a stream's, unless its upgrade was refused). */
export function showsAsStream(run: RunSnapshot): run is StreamRun {
	return isStreamRun(run) && !isRefusedUpgrade(run);
}

function timingOf(run: StreamRun): StreamTiming {
	const t = run.timing;
	const firstMessageMs = t?.firstMessage !== undefined && t.handshake !== undefined ? t.firstMessage - t.handshake : undefined;
	return {
		...(t?.connect === undefined ? {} : { connectMs: t.connect }),
		...(t?.handshake === undefined ? {} : { handshakeMs: t.handshake }),
		...(firstMessageMs === undefined ? {} : { firstMessageMs }),
		count: run.counts.received + run.counts.sent,
	};
}

/** What the panel shows of one core snapshot. The message array is handed over as is: it is append-only and shared. */
export function streamSnapshotOf(run: StreamRun): StreamSnapshot {
	const active = isActive(run.state);
	return {
		protocol: run.kind,
		state: active ? (run.head ? "open" : "connecting") : "closed",
		handshake: run.head ? { status: run.head.status, statusText: run.head.statusText, headers: run.head.headers } : null,
		messages: run.messages,
		close: run.close ?? null,
		timing: timingOf(run),
	};
}

/**
 * The stream panel's model of one block: the session's run snapshots for its key, mapped on
 * demand (once per core snapshot, however often the panel asks). Sending goes to the latest
 * snapshot's `send`, which the core offers only while a WebSocket is open.
 */
export class SessionStreamModel implements StreamPanelModel {
	private latest: StreamRun;
	private mapped: { run: StreamRun; snapshot: StreamSnapshot } | null = null;
	readonly send?: (text: string) => void;

	/** @param first the stream snapshot that made the panel mount (its kind decides whether it can send). */
	constructor(
		private readonly session: NoteSession,
		private readonly key: string,
		first: StreamRun,
	) {
		this.latest = first;
		if (first.kind === "websocket") this.send = (text) => void this.latest.send?.(text);
	}

	snapshot(): StreamSnapshot {
		if (this.mapped?.run !== this.latest) this.mapped = { run: this.latest, snapshot: streamSnapshotOf(this.latest) };
		return this.mapped.snapshot;
	}

	subscribe(listener: () => void): () => void {
		return this.session.subscribe(this.key, (run) => {
			// Another kind's snapshot (the block was rewritten, or a run has not started) leaves the last stream shown.
			if (!isStreamRun(run) || run === this.latest) return;
			this.latest = run;
			listener();
		});
	}
}
