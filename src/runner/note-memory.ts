/**
 * What a run carries of the note memory (docs/note-memory.md): the properties a successful run
 * sets, a poll's progress, the wait between attempts. Types only, importing nothing, so the
 * run's shared types (result.ts) name them without an import cycle.
 */

/** A note's front matter as read (Obsidian's metadata cache, or the CLI's parse of the file). */
export type NoteProperties = Readonly<Record<string, unknown>>;

/** What a finished run sets: each property's value, its type kept, or why none is set. */
export type PropertyWrites = { ok: true; values: Record<string, unknown> } | { ok: false; message: string };

/** A poll's phases (src/runner/poll.ts moves them). */
export type PollPhase = "attempting" | "waiting" | "passed" | "exhausted" | "stopped" | "ended";

/** One attempt as the panel's sparkline and the CLI show it. */
export interface PollAttempt {
	status: number | null;
	durationMs: number;
	state: "done" | "cached" | "cancelled" | "failed";
	met: boolean;
}

/** Where a poll is: on every snapshot of a polled block (attempt k of n, the attempts so far). */
export interface PollProgress {
	phase: PollPhase;
	/** 1-based: the attempt running, or the last one made. */
	attempt: number;
	max: number;
	everyMs: number;
	attempts: PollAttempt[];
	/** While waiting: epoch ms of the next attempt. */
	nextAt?: number;
}

/** Waits `ms`; true when the time passed, false as soon as `signal` aborts (Stop). Never rejects. */
export type Sleeper = (ms: number, signal: AbortSignal | undefined) => Promise<boolean>;
