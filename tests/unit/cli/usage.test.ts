import { exportingKinds, snippetFormats } from "../../../src/runner/block-runners";
import { COMMANDS, commandHelp, EXIT, isCommand, USAGE, UsageError } from "../../../src/cli/usage";

describe("usage", () => {
	it("knows its commands, and nothing else, as commands", () => {
		expect(Object.keys(COMMANDS).every(isCommand)).toBe(true);
		expect(["", "toString", "constructor", "runs", "--help"].some(isCommand)).toBe(false);
	});

	it("lists every command's synopsis and the exit codes", () => {
		for (const c of Object.values(COMMANDS)) expect(USAGE).toContain(`\n  ${c.synopsis}\n`);
		expect(USAGE).toContain("runnable-blocks --version");
		expect(USAGE).toContain(`${EXIT.ok} finished, ${EXIT.failed} a block failed`);
		expect(USAGE).toContain(`${EXIT.usage} usage or parse errors, ${EXIT.internal} internal error`);
	});

	it("describes one command under its synopsis", () => {
		expect(commandHelp("diff").split("\n").slice(0, 3)).toEqual(["usage: runnable-blocks diff <note.md> --alias NAME", "", "Prints the two panes of the textdiff block NAME as a unified diff (diff -u), compared"]);
	});

	it("lists export's formats by kind, as the kinds' registry lines declare them", () => {
		const help = commandHelp("export");
		expect(help).toContain("--format FORMAT");
		const listed = help.split("Formats, by kind:\n")[1].split("\n").map((line) => line.trim().split(/\s{2,}/));
		expect(listed).toEqual(exportingKinds().map((k) => [k, snippetFormats(k).join(", ")]));
		expect(listed.map(([kind]) => kind)).toEqual(["http", "sse", "websocket"]);
		expect(commandHelp("diff")).not.toContain("Formats, by kind");
	});

	it("has usage errors that are errors", () => {
		expect(new UsageError("no note")).toBeInstanceOf(Error);
	});
});
