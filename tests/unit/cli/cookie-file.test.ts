import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { persistedCookies } from "../../../src/cli/cookie-file";
import type { CliVault } from "../../../src/cli/vault";
import type { CookieJars } from "../../../src/runner/cookie-jar";

/** The jars' persistence face: what they were restored from, and what they hold now. */
function jars(held = "{}") {
	const fake = {
		restored: null as string | null,
		held,
		onChange: null as (() => void) | null,
		restore(text: string) {
			this.restored = text;
			return text.startsWith("{") ? null : "Unexpected token";
		},
		serialize() {
			return this.held;
		},
	};
	return fake;
}

let dir: string;
let vault: CliVault;
let file: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-cookie-file-"));
	mkdirSync(join(dir, "plugin"));
	file = join(dir, "plugin", "cookies.json");
	vault = { root: dir, notePath: "n.md", historyPath: join(dir, "plugin", "history.sqlite"), configPath: null };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("persistedCookies", () => {
	it("starts from the plugin's cookies.json and writes the jars back when a response changed them", () => {
		writeFileSync(file, '{"dev":1}');
		const j = jars('{"dev":2}');
		const save = persistedCookies(j as unknown as CookieJars, vault, true, () => undefined);
		expect(j.restored).toBe('{"dev":1}');
		j.onChange?.();
		save();
		expect(readFileSync(file, "utf8")).toBe('{"dev":2}');
		expect(j.onChange).toBeNull();
	});

	it("writes nothing when no response changed the jars", () => {
		const j = jars();
		persistedCookies(j as unknown as CookieJars, vault, true, () => undefined)();
		expect(existsSync(file)).toBe(false);
	});

	it("leaves a file it cannot read as it is, and says so", () => {
		writeFileSync(file, "garbage");
		const j = jars('{"dev":2}');
		const warnings: string[] = [];
		const save = persistedCookies(j as unknown as CookieJars, vault, true, (w) => warnings.push(w));
		j.onChange?.();
		save();
		expect(readFileSync(file, "utf8")).toBe("garbage");
		expect(warnings).toEqual([`runnable-blocks: ${file}: cookies not read (Unexpected token); this run starts with an empty jar and leaves the file as it is\n`]);
	});

	it("neither reads nor writes when the setting is off or the note is outside a vault", () => {
		writeFileSync(file, '{"dev":1}');
		for (const [v, persist] of [[vault, false], [{ ...vault, root: null, historyPath: null }, true]] as const) {
			const j = jars('{"dev":2}');
			const save = persistedCookies(j as unknown as CookieJars, v, persist, () => undefined);
			j.onChange?.();
			save();
			expect(j.restored).toBeNull();
		}
		expect(readFileSync(file, "utf8")).toBe('{"dev":1}');
	});

	it("says when the jars cannot be saved", () => {
		rmSync(join(dir, "plugin"), { recursive: true });
		const j = jars();
		const warnings: string[] = [];
		const save = persistedCookies(j as unknown as CookieJars, vault, true, (w) => warnings.push(w));
		j.onChange?.();
		save();
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/cookies not saved \(.*ENOENT/);
	});
});
