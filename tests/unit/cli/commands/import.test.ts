import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importCommand } from "../../../../src/cli/commands/import";
import { EXIT, UsageError } from "../../../../src/cli/usage";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-import-"));
	writeFileSync(join(dir, "api.http"), "@base = http://127.0.0.1\n\n### list\nGET {{base}}/books\n\n###\nG@T /x\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(opts: { file: string; output?: string }) {
	const out: string[] = [];
	const err: string[] = [];
	const code = importCommand(opts, (s) => out.push(s), (s) => err.push(s));
	return { code, out: out.join(""), err: err.join("") };
}

describe("runnable-blocks import", () => {
	it("prints the note, one fence per request, and lists what will not run", () => {
		const r = run({ file: join(dir, "api.http") });
		expect(r.code).toBe(EXIT.ok);
		expect(r.out).toContain("```http\n@base = http://127.0.0.1\n```");
		expect(r.out).toContain("GET {{base}}/books");
		expect(r.err).toMatch(/^note: line \d+: .*G@T/);
	});

	it("writes the note to a new file with -o, never over an existing one", () => {
		const output = join(dir, "api.md");
		const r = run({ file: join(dir, "api.http"), output });
		expect(r.err.split("\n")[0]).toBe(`wrote ${output}`);
		expect(readFileSync(output, "utf8")).toContain("GET {{base}}/books");
		expect(() => run({ file: join(dir, "api.http"), output })).toThrow(new UsageError(`${output} exists: choose a new file`));
	});

	it("says why a file cannot be read", () => {
		expect(() => run({ file: join(dir, "none.http") })).toThrow(new UsageError(`${join(dir, "none.http")}: cannot read it (ENOENT)`));
	});
});
