import { TFile } from "obsidian";
import type { Engine } from "../runner/engine";
import type { Notes } from "./notes";

/**
 * A note that uses `{{$dotenv …}}` has its `.env` read as it opens (`file-open`, and the note
 * open when the layout is ready), so copying one of its blocks has the file's values before the
 * note's first run: a copy must write the clipboard within the click, too soon for a read to
 * finish. Runs read the file again; any other note costs a text search.
 */
export function readNoteFilesOnOpen(engine: Pick<Engine, "readNoteFiles">, notes: Pick<Notes, "text" | "ofText">): (file: TFile | null) => Promise<void> {
	return async (file) => {
		if (!(file instanceof TFile) || !file.path.endsWith(".md")) return;
		const text = await notes.text(file.path);
		if (text.includes("$dotenv")) await engine.readNoteFiles(file.path, notes.ofText(text));
	};
}
