import { TFile } from "obsidian";
import { parseNote } from "../../../src/blocks";
import { createEngine } from "../../../src/runner/engine";
import { exportHooks } from "../../../src/ui/export-actions";
import { readNoteFilesOnOpen } from "../../../src/ui/note-files-on-open";

const USES = "```http alias=call\nGET https://api.test/x\nX-Key: {{$dotenv KEY}}\n```\n";
const PLAIN = "```http alias=plain\nGET https://api.test/y\n```\n";

/** An engine that cannot send, whose notes' `.env` files are `envs` (by folder); every read is noted. */
function setup(texts: Record<string, string>, envs: Record<string, string>) {
	const reads: string[] = [];
	const engine = createEngine({
		transport: () => {
			throw new Error("opening a note sent something");
		},
		history: () => null,
		environment: () => ({ name: "dev", variables: {}, secretValues: [], secretNames: [], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 1000,
		dotenv: (path) => (reads.push(path), Promise.resolve(envs[path.replace(/[^/]*$/, "")] ?? null)),
	});
	const notes = { text: (path: string) => Promise.resolve(texts[path] ?? ""), ofText: (text: string) => parseNote(text) };
	return { engine, reads, open: readNoteFilesOnOpen(engine, notes) };
}

const file = (path: string) => Object.assign(new TFile(), { path });

describe("reading a note's .env as it opens", () => {
	it("gives export the file's values before the note's first run", async () => {
		const { engine, open } = setup({ "api/n.md": USES }, { "api/": "KEY=k1\n" });
		const note = parseNote(USES);
		expect(engine.prepare("api/n.md", note, note[0])).toMatchObject({ ok: false, error: { message: expect.stringContaining("opening or running the note reads it") as unknown } });
		await open(file("api/n.md"));
		expect(engine.prepare("api/n.md", note, note[0])).toMatchObject({ ok: true, request: { headers: [["X-Key", "k1"]] } });
		// A copy (synchronous, within the click) then writes the value.
		const copied: string[] = [];
		Object.defineProperty(globalThis, "navigator", { value: { clipboard: { writeText: (t: string) => Promise.resolve(void copied.push(t)) } }, configurable: true });
		exportHooks(engine, {}).copy("api/n.md", note, note[0], "curl");
		expect(copied).toEqual(["curl https://api.test/x -H 'X-Key: k1' --location"]);
	});

	it("reads nothing for a note that uses no $dotenv, nor for what is not a note", async () => {
		const { reads, open } = setup({ "api/plain.md": PLAIN, "api/data.csv": "$dotenv" }, { "api/": "KEY=k1\n" });
		await open(file("api/plain.md"));
		await open(file("api/data.csv"));
		await open(null);
		expect(reads).toEqual([]);
	});
});
