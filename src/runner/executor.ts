import { CACHEABLE_METHODS } from "../blocks";
import { canonicalUrl } from "./cache-key";
import { invalidatedUrls, storable } from "./cache-policy";
import { shownRequest, wireBody, type PreparedRequest } from "./request";
import { failedError } from "./failures";
import type { RunCookies } from "./cookie-jar";
import type { BodyFiles } from "./file-parts";
import type { HttpResult, HttpRun } from "./http/http-run";
import type { KindDeps, KindOptions, RunError, RunSnapshot } from "./result";
import { nextState, type RunEvent } from "./state-machine";
import { sendWithDigest } from "./http/digest-auth";
import type { Transport, TransportOutcome } from "./transport";
import type { Sleeper } from "./note-memory";

/** The cache as the executor needs it (a byte-bounded LRU in practice). */
export interface ResultCache {
	/** How many entries it holds: an empty cache is not asked, so the first run's key is made after its request left. */
	readonly size: number;
	get(key: string): HttpResult | undefined;
	set(key: string, value: HttpResult, sizeBytes: number): void;
	/** Drops the entries whose request matches (a write made them stale). */
	deleteWhere(match: (value: HttpResult) => boolean): number;
}

/** One history row: never a body, never a header value. */
export interface HistoryEntry {
	filePath: string;
	/** The alias, or `#L<line>` (1-based fence line) for a block without one. */
	alias: string;
	method: string;
	url: string;
	status: number | null;
	/** `cached`: served from the response cache, no network (listed, marked, never counted as a network run). */
	outcome: "done" | "cached" | "cancelled" | "failed";
	errorCode: string | null;
	requestBytes: number;
	responseBytes: number;
	durationMs: number;
	timestamp: number;
	transport: string;
	/** What a kind counts of its run, never its values: a db block's rows (returned or affected). */
	itemCount?: number | null;
	/** A stream's close code (a WebSocket's close frame), null without one; absent for other kinds. */
	closeCode?: number | null;
	/** A stream's messages sent (itemCount holds those received). */
	sentCount?: number | null;
}

export interface HistoryRecorder {
	record(entry: HistoryEntry): void;
}

export interface ExecutorDeps {
	transport: Transport;
	/** Computes the cache key of a request and the environment variables it references. */
	cacheKey(request: PreparedRequest, envSnapshot: Record<string, string>): string;
	cache?: ResultCache;
	history?: HistoryRecorder;
	now?: () => number;
	/** The wait between `# @poll` attempts (tests inject one that needs no timer); default a timer. */
	sleep?: Sleeper;
	/** What the kinds' runners need from the host, by kind (a kind whose entry is absent fails saying so). */
	kinds?: Partial<KindDeps>;
	/** Reads `< file` body parts (absent: such a block fails saying so). */
	files?: BodyFiles;
	/** The active environment's cookie jar (absent: none is kept). */
	cookies?: RunCookies;
}

export interface ExecuteOptions {
	envSnapshot: Record<string, string>;
	/** Skip the cache lookup and refresh the entry (`block.force_run`). */
	force?: boolean;
	signal?: AbortSignal;
	onUpdate?: (snapshot: RunSnapshot) => void;
	/** Where the history row goes. */
	filePath: string;
	historyAlias: string;
	/** Replaces secret values in the URL stored in history. */
	maskUrl?: (url: string) => string;
	/** The target's run as the user asked for it, by kind (a db block's load more or EXPLAIN); other kinds ignore it. */
	kindOptions?: Partial<KindOptions>;
}

function errorOf(outcome: Exclude<TransportOutcome, { kind: "done" }>): RunError {
	if (outcome.kind === "cancelled") {
		return outcome.reason === "timeout" ? failedError("timeout", undefined) : failedError("cancelled", undefined);
	}
	return { code: outcome.code, message: outcome.message, detail: outcome.detail };
}

/**
 * Runs one prepared request through the state machine: cache lookup for GET/HEAD/OPTIONS,
 * then the transport, streaming snapshots to `onUpdate`, then cache and history updates.
 * Resolves with the final result; never rejects.
 */
export async function executeRequest(request: PreparedRequest, deps: ExecutorDeps, opts: ExecuteOptions): Promise<HttpResult> {
	const now = deps.now ?? Date.now;
	// A client certificate's key goes to the transport only: the run's snapshots, its result and the cache keep the request without it.
	const kept: PreparedRequest = request.clientTls ? { ...request, clientTls: undefined } : request;
	let snapshot: HttpRun = { kind: "http", state: "idle", receivedBytes: 0, request: kept, transport: deps.transport.name };
	const move = (event: RunEvent, patch: Partial<HttpRun>): HttpRun => {
		snapshot = { ...snapshot, ...patch, state: nextState(snapshot.state, event) };
		opts.onUpdate?.(snapshot);
		return snapshot;
	};

	const cache = CACHEABLE_METHODS.has(request.method) ? deps.cache : undefined;
	// The key hashes the request: with nothing cached it cannot hit, so it is made once the request has left (to store the response).
	let key: string | undefined;
	const keyOf = () => (key ??= deps.cacheKey(request, opts.envSnapshot));
	if (cache && cache.size > 0 && !opts.force) {
		const hit = cache.get(keyOf());
		if (hit) {
			const served = move("cache_hit", { ...hit, request: kept, startedAt: now(), cachedAt: hit.cachedAt ?? hit.startedAt }) as HttpResult;
			deps.history?.record(historyEntry(request, served, opts, served.startedAt ?? now(), "cached", deps));
			return served;
		}
	}

	const startedAt = now();
	move("start", { startedAt });
	const outcome = await sendWithDigest(deps.transport, request, {
		signal: opts.signal,
		cookies: request.noCookieJar ? undefined : deps.cookies,
		onHeaders: (head) => move("headers", { head, timing: { total: now() - startedAt } }),
		onChunk: (_chunk, receivedBytes) => {
			if (snapshot.state === "streaming") move("chunk", { receivedBytes });
		},
	});

	let result: HttpResult;
	if (outcome.kind === "done") {
		result = move("complete", {
			head: outcome.head,
			body: outcome.body,
			receivedBytes: outcome.body.byteLength,
			timing: outcome.timing,
			requestBytes: outcome.requestBytes,
			rawRequestHead: outcome.rawRequestHead,
			error: undefined,
		}) as HttpResult;
		// Without a cache (the CLI's --no-cache) there is nothing to make stale, and no URL to parse per write.
		if (deps.cache) {
			const stale = invalidatedUrls(request, outcome.head);
			if (stale.length > 0) deps.cache.deleteWhere((r) => r.request !== undefined && stale.includes(canonicalUrl(r.request.url)));
		}
		if (cache && storable(request, outcome.head)) cache.set(keyOf(), result, outcome.body.byteLength + 1024);
	} else {
		const event: RunEvent = outcome.kind === "cancelled" ? (outcome.reason === "timeout" ? "timeout" : "cancel") : "fail";
		// Partial bytes are discarded: a cancelled or failed run keeps no body.
		result = move(event, { error: errorOf(outcome), timing: outcome.timing, body: undefined }) as HttpResult;
	}
	deps.history?.record(historyEntry(request, result, opts, startedAt, result.state === "done" ? "done" : result.state === "cancelled" ? "cancelled" : "failed", deps));
	return result;
}

/** The history row of a run: never a body, never a header value; the URL as masked for display. */
function historyEntry(request: PreparedRequest, result: HttpResult, opts: ExecuteOptions, startedAt: number, outcome: HistoryEntry["outcome"], deps: ExecutorDeps): HistoryEntry {
	return {
		filePath: opts.filePath,
		alias: opts.historyAlias,
		method: request.method,
		// Masked where a secret was substituted; then by value, for a secret that came with no span.
		url: opts.maskUrl ? opts.maskUrl(shownRequest(request).url) : shownRequest(request).url,
		status: result.head?.status ?? null,
		outcome,
		errorCode: result.error?.code ?? null,
		requestBytes: outcome === "cached" ? 0 : (result.requestBytes ?? wireBody(request).byteLength),
		responseBytes: result.body?.byteLength ?? 0,
		durationMs: outcome === "cached" ? 0 : (result.timing?.total ?? (deps.now ?? Date.now)() - startedAt),
		timestamp: startedAt,
		transport: deps.transport.name,
	};
}
