import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parse } from "smol-toml";
import { deleteTomlKey, deleteTomlTable, readToml, renameTomlTable, setTomlValue, TomlPatchError } from "../../../src/settings/toml-patch";

const commented = readFileSync(join(__dirname, "../../fixtures/settings/commented.toml"), "utf8");

/** The lines that differ between two texts, as [before, after] pairs. */
function changedLines(a: string, b: string): Array<[string | undefined, string | undefined]> {
	const x = a.split("\n");
	const y = b.split("\n");
	const out: Array<[string | undefined, string | undefined]> = [];
	for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) out.push([x[i], y[i]]);
	return out;
}

describe("comment-preserving patch writer", () => {
	it("changes one value in place, keeping its trailing comment and every other byte", () => {
		const out = setTomlValue(commented, ["general", "timeout"], 5000);
		expect(changedLines(commented, out)).toEqual([["timeout = 30000       # ms", "timeout = 5000       # ms"]]);
	});

	it("rebinds a quoted keymap key", () => {
		const out = setTomlValue(commented, ["keymap", "block.run"], "Alt+R");
		expect(changedLines(commented, out)).toEqual([['"block.run" = "Mod+Enter"', '"block.run" = "Alt+R"']]);
	});

	it("adds a missing key after the last key of its table", () => {
		const out = setTomlValue(commented, ["keymap", "block.cancel"], "Mod+Shift+.");
		const lines = out.split("\n");
		expect(lines[lines.indexOf('"chat.toggle" = "Mod+B"') + 1]).toBe('"block.cancel" = "Mod+Shift+."');
		expect((parse(out) as { keymap: Record<string, string> }).keymap["block.cancel"]).toBe("Mod+Shift+.");
		expect(out.replace('"block.cancel" = "Mod+Shift+."\n', "")).toBe(commented);
	});

	it("appends a missing table at the end", () => {
		const out = setTomlValue(commented, ["environments", "prod", "base_url"], "https://api.example.test");
		expect(out.startsWith(commented)).toBe(true);
		expect(out.slice(commented.length)).toBe('\n[environments.prod]\nbase_url = "https://api.example.test"\n');
	});

	it("creates a file from nothing", () => {
		expect(setTomlValue("", ["general", "environment"], "dev")).toBe('[general]\nenvironment = "dev"\n');
	});

	it("writes a secret reference and escapes strings", () => {
		const out = setTomlValue(commented, ["environments", "staging", "token"], { secret: "staging-token" });
		expect(out).toContain('token = { secret = "staging-token" }');
		const quoted = setTomlValue(commented, ["environments", "dev", "base_url"], 'say "hi"\\ \n');
		expect((parse(quoted) as { environments: { dev: { base_url: string } } }).environments.dev.base_url).toBe('say "hi"\\ \n');
	});

	it("writes a list of strings", () => {
		expect(setTomlValue("", ["a", "resource"], ["https://x/1", 'q"'])).toBe('[a]\nresource = ["https://x/1", "q\\""]\n');
	});

	it("keeps CRLF files CRLF", () => {
		const crlf = commented.replace(/\n/g, "\r\n");
		const out = setTomlValue(crlf, ["keymap", "block.cancel"], "Mod+.");
		expect(out.replace(/\r\n/g, "")).not.toContain("\n");
	});

	it("refuses to touch a file that does not parse", () => {
		expect(() => setTomlValue('[general\ntimeout = 1', ["general", "timeout"], 2)).toThrow(TomlPatchError);
		expect(() => deleteTomlKey('x = "', ["x"])).toThrow(/does not parse/);
	});

	it("deletes one key line and renames an environment table", () => {
		const deleted = deleteTomlKey(commented, ["environments", "dev", "port"]);
		expect(changedLines(commented, deleted)[0]).toEqual(["port = 8080", ""]);
		const renamed = renameTomlTable(commented, ["environments", "staging"], ["environments", "preprod"]);
		expect(changedLines(commented, renamed)).toEqual([["[environments.staging]", "[environments.preprod]"]]);
		expect(() => renameTomlTable(commented, ["environments", "staging"], ["environments", "dev"])).toThrow(/already exists/);
	});

	it("deletes an environment table with its sub-tables and its own comments, keeping its neighbours' comments", () => {
		const text = ["# top", "[general]", 'environment = "dev"', "", "# the dev box", "[environments.dev]", "a = 1", "[environments.dev.extra]", "b = 2", "", "# production", "[environments.prod]", "c = 3 # keep", ""].join("\n");
		const out = deleteTomlTable(text, ["environments", "dev"]);
		expect(out).toBe(["# top", "[general]", 'environment = "dev"', "", "# production", "[environments.prod]", "c = 3 # keep", ""].join("\n"));
		expect(parse(out)).toEqual({ general: { environment: "dev" }, environments: { prod: { c: 3 } } });
		expect(deleteTomlTable(text, ["environments", "none"])).toBe(text);
		expect(() => deleteTomlTable('[environments]\ndev.a = 1\n', ["environments", "dev"])).toThrow(/dotted keys/);
		expect(() => deleteTomlTable("[a\n", ["a"])).toThrow(/does not parse/);
	});

	it("property: setting any key leaves every other value unchanged and re-parses to the value", () => {
		const segment = fc.oneof(fc.constantFrom("general", "keymap", "environments", "dev", "block.run", "x y", "a"), fc.string({ minLength: 1, maxLength: 8 }));
		const value = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean());
		fc.assert(
			fc.property(fc.constantFrom("general", "keymap", "extras", "newtable"), segment, value, (table, key, v) => {
				const before = parse(commented) as Record<string, Record<string, unknown>>;
				let out: string;
				try {
					out = setTomlValue(commented, [table, key], v);
				} catch (e) {
					// Refusing is allowed only for keys it cannot write in place (e.g. a sub-table or an existing table key).
					expect(e).toBeInstanceOf(TomlPatchError);
					return;
				}
				const after = parse(out) as Record<string, Record<string, unknown>>;
				expect(after[table][key]).toEqual(v);
				for (const t of Object.keys(before)) {
					for (const k of Object.keys(before[t])) if (!(t === table && k === key)) expect(after[t][k]).toEqual(before[t][k]);
				}
				for (const line of commented.split("\n").filter((l) => l.trim().startsWith("#"))) expect(out).toContain(line);
			}),
			{ numRuns: 300 },
		);
	});
});

describe("readToml: the document for code outside main.js's smol-toml (text modules)", () => {
	it("gives the parsed document of a valid text", () => expect(readToml('[environments.dev]\nbase = "x"\n')).toEqual({ ok: true, doc: { environments: { dev: { base: "x" } } } }));
	it("gives the parser's first line for a text that does not parse, never throws", () => {
		const read = readToml("[keymap\n");
		expect(read.ok).toBe(false);
		if (!read.ok) expect(read.message).not.toContain("\n");
	});
});
