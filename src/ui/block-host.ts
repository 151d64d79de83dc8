import type { App } from "obsidian";
import type { Engine, EnginePorts } from "../runner/engine";
import type { NoteSession } from "../runner/session";
import type { Settings } from "../settings/user-settings";
import type { Notes } from "./notes";

/**
 * What a rendered block sees of the plugin, the same for every kind: each renderer builds its
 * own actions from these (a new kind adds no member here).
 */
export interface BlockHost {
	readonly app: App;
	readonly engine: Engine;
	/** The engine's adapters (files, databases, environment) as the plugin provides them. */
	readonly services: EnginePorts;
	/** Reads, parses and writes back notes (one undo step per edit when the note is open). */
	readonly notes: Notes;
	settings(): Settings;
	session(filePath: string): NoteSession;
	runKeyLabel(): string;
}
