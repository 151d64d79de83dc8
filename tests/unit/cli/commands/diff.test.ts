import { main } from "../../../../src/cli/main";
import type { ParsedBlockJson } from "../../../../src/cli/commands/parse";

async function run(args: string[], terminal?: Parameters<typeof main>[3]): Promise<{ code: number; out: string; err: string }> {
	let out = "";
	let err = "";
	const code = await main(args, (s) => (out += s), (s) => (err += s), terminal);
	return { code, out, err };
}

const note = "tests/fixtures/notes/diff-sample.md";

describe("runnable-blocks diff", () => {
	it("prints the panes as a unified diff and exits 1 when they differ", async () => {
		const { code, out, err } = await run(["diff", note, "--alias", "config"]);
		expect(out).toBe(["--- config (left)", "+++ config (right)", "@@ -1,3 +1,4 @@", ' host = "a.example"', "-port = 80", "+port = 8080", " debug = false", "+tls = true", ""].join("\n"));
		expect(err).toBe("");
		expect(code).toBe(1);
	});

	it("exits 0 with no output when the panes are equal under the fence's options", async () => {
		await expect(run(["diff", note, "--alias", "same"])).resolves.toEqual({ code: 0, out: "", err: "" });
	});

	it("compares normalised JSON with normalize=json", async () => {
		const { code, out } = await run(["diff", note, "--alias", "json"]);
		expect(code).toBe(1);
		expect(out).toContain('       1,\n-      2\n+      3\n');
		expect(out).not.toContain('"b": 1,\n+');
	});

	it("reads the left pane's escape: the separator line itself compared with the right pane's", async () => {
		await expect(run(["diff", note, "--alias", "escaped"])).resolves.toMatchObject({ code: 0, out: "" });
	});

	it("colours the diff and says the count on a colour terminal", async () => {
		const { out, err } = await run(["diff", note, "--alias", "config"], { rich: true, colour: true, progress: true });
		expect(out).toContain("\x1b[31m-port = 80\x1b[0m");
		expect(out).toContain("\x1b[32m+port = 8080\x1b[0m");
		expect(err).toBe("2 changes, +2 \u22121 lines\n");
	});

	it.each([
		[["diff", note], /diff takes one note and --alias/],
		[["diff", note, "--alias", "nope"], /no block with alias "nope" in .*diff-sample\.md \(textdiff blocks: config, same, json, escaped, broken\)/],
		[["diff", note, "--alias", "api"], /"api" is an http block; diff compares the two panes of a textdiff block/],
		[["diff", note, "--alias", "broken"], /cannot compare broken: .*diff-sample\.md:32:26: mode "sideways" is invalid/],
		[["diff", "tests/fixtures/notes/missing.md", "--alias", "x"], /cannot read the note \(ENOENT\)/],
	])("exits 2 with one line for %j", async (args, message) => {
		const { code, out, err } = await run(args);
		expect(code).toBe(2);
		expect(out).toBe("");
		expect(err).toMatch(message);
		expect(err.trim().split("\n")).toHaveLength(1);
	});

	it("is listed in the usage and has its own help", async () => {
		expect((await run(["help"])).out).toContain("runnable-blocks diff <note.md> --alias NAME");
		expect((await run(["diff", "--help"])).out).toMatch(/Exit: 0 the panes are equal, 1 they differ/);
	});
});

describe("runnable-blocks parse --json with textdiff blocks", () => {
	it("reports each textdiff block's panes as left and right", async () => {
		const { out } = await run(["parse", note, "--json"]);
		const blocks = JSON.parse(out) as ParsedBlockJson[];
		const config = blocks.find((b) => b.alias === "config");
		expect(config).toMatchObject({ kind: "textdiff", left: 'host = "a.example"\nport = 80\ndebug = false', right: 'host = "a.example"\nport = 8080\ndebug = false\ntls = true', method: null });
		expect(blocks.find((b) => b.alias === "escaped")).toMatchObject({ left: "=== right ===", right: "=== right ===" });
		expect(blocks.find((b) => b.alias === "same")?.info).toEqual({ alias: "same", ignore_whitespace: true, ignore_case: true });
		expect(blocks.find((b) => b.alias === "api")).toMatchObject({ left: null, right: null });
	});
});
