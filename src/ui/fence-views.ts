import type { Component } from "obsidian";
import type { NoteBlock } from "../blocks";
import type { RunSnapshot } from "../runner/result";
import type { NoteSession } from "../runner/session";
import type { BlockHost } from "./block-host";

/**
 * A kind's own view of its runs inside the response panel of a fence it shares with another kind
 * (a stream's messages in the ```http panel), shown in place of the panel's tabs.
 */
export interface RunView<R extends RunSnapshot = RunSnapshot> {
	/** Whether this run shows in it; any other (a refused upgrade: an http response) shows in the tabs. */
	shows(run: RunSnapshot): run is R;
	/** The view of one block's runs, from the run that made it show; it follows the session itself. */
	mount(parent: HTMLElement, session: NoteSession, key: string, run: R): Component;
}

/** What a kind draws in its block above the panel (e.g. that the mobile app cannot send its headers). */
export type BlockNotice = (parent: HTMLElement, host: BlockHost, filePath: string, block: NoteBlock) => void;

/**
 * What a shared fence's views ask of the kind of the block or run they show, answered by the
 * renderer registry (src/ui/block-renderers.ts) and handed to them, so they name no kind.
 */
export interface FenceViews {
	runViewOf(kind: string): RunView | undefined;
	noticeOf(kind: string): BlockNotice | undefined;
}
