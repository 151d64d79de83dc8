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

	it("has usage errors that are errors", () => {
		expect(new UsageError("no note")).toBeInstanceOf(Error);
	});
});
