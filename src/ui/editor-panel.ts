import type { Component } from "obsidian";

/** What a kind shows under its closing fence while the source is on screen. */
export interface EditorPanel {
	/** Equal identities keep the panel on screen across edits (a running response stays put). */
	identity: string;
	/** The `display=` in force, for the panel's layout. */
	display: string;
	/** Builds the panel into `wrap`; the caller loads it, and unloads it when the widget goes. */
	mount(wrap: HTMLElement): Component;
}
