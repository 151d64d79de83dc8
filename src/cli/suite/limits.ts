import { failed, type Transport } from "../../runner/transport";

/** Why a suite stopped before its end: `--bail`, `--deadline`, `--max-requests`, or a signal. */
export type StopReason = "bail" | "deadline" | "max-requests" | "interrupted";

export interface LimitOptions {
	/** Requests the whole run may send (every transport send: a request with its redirects, token requests included). */
	maxRequests?: number;
	/** Milliseconds the whole run may take. */
	deadlineMs?: number;
	bail: boolean;
	/** Injected so tests decide when the deadline passes. */
	setTimer?: (run: () => void, ms: number) => { clear(): void };
}

const realTimer = (run: () => void, ms: number) => {
	const t = setTimeout(run, ms);
	return { clear: () => clearTimeout(t) };
};

/**
 * The bounds of one suite run, shared by all its notes. Once stopped no note starts; how the
 * running ones end depends on the reason: `--bail`, the deadline and a signal cancel them at
 * once (`signal`), the request budget refuses each request past it and lets those already
 * sent finish (they were counted, their answers are kept).
 */
export class RunLimits {
	private readonly controller = new AbortController();
	private reason: StopReason | null = null;
	private sent = 0;
	private readonly timer: { clear(): void } | null;

	constructor(private readonly opts: LimitOptions) {
		this.timer = opts.deadlineMs !== undefined ? (opts.setTimer ?? realTimer)(() => this.stop("deadline"), opts.deadlineMs) : null;
	}

	/** Aborted when the running blocks must be cancelled. */
	get signal(): AbortSignal {
		return this.controller.signal;
	}

	/** The first reason the run stopped, or null while it may go on. */
	get stopped(): StopReason | null {
		return this.reason;
	}

	/** Requests sent so far through guarded transports. */
	get requests(): number {
		return this.sent;
	}

	stop(reason: StopReason): void {
		if (this.reason !== null) return;
		this.reason = reason;
		if (reason !== "max-requests") this.controller.abort();
	}

	/** With --bail, the first block that did not pass stops the run (not one that a stop already ended). */
	blockEnded(passed: boolean): void {
		if (!passed && this.opts.bail && this.reason === null) this.stop("bail");
	}

	/** The transport as the run may use it: each send spends one request of the budget; past it, nothing is sent. */
	guard(transport: Transport): Transport {
		const max = this.opts.maxRequests;
		if (max === undefined) return transport;
		return {
			name: transport.name,
			streams: transport.streams,
			send: (request, options) => {
				if (this.sent >= max) {
					this.stop("max-requests");
					return Promise.resolve(failed("request_failed", `not sent: the run's limit of ${max} requests (--max-requests) was reached`, { total: 0 }));
				}
				this.sent++;
				return transport.send(request, options);
			},
		};
	}

	dispose(): void {
		this.timer?.clear();
	}
}
