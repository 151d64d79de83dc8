/**
 * The core/adapter boundary is a lint rule, not a convention: the project's ESLint config applies
 * eslint.boundaries.mjs to the core, and that rule rejects a core file importing `obsidian`,
 * src/ui or the editor's view (@codemirror/view, or @codemirror/merge which brings it). ESLint
 * runs in a child Node process (its config is ESM, which jest's CommonJS runtime does not load).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..", "..");

function eslintEval(script: string): unknown {
	const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
	if (r.status !== 0) throw new Error(r.stderr);
	return JSON.parse(r.stdout) as unknown;
}

jest.setTimeout(60_000);

describe("core/adapter boundary", () => {
	it("rejects a core file that imports obsidian or src/ui, and accepts one that imports the core", () => {
		const messages = eslintEval(`
			import { ESLint } from "eslint";
			import tseslint from "typescript-eslint";
			import { boundaries } from "./eslint.boundaries.mjs";
			const eslint = new ESLint({ overrideConfigFile: true, overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } }, boundaries] });
			const lint = async (file, text) => (await eslint.lintText(text, { filePath: file }))[0].messages.map((m) => [m.line, m.ruleId, m.message]);
			console.log(JSON.stringify({
				runner: await lint("src/runner/fixture.ts", 'import { Notice } from "obsidian";\\nimport { t } from "../ui/strings";\\nimport type { App } from "obsidian";\\nexport const x = [Notice, t];\\n'),
				cli: await lint("src/cli/fixture.ts", 'import Plugin from "../../main";\\nexport const p = Plugin;\\n'),
				view: await lint("src/blocks/fixture.ts", 'import { diff } from "@codemirror/merge";\\nimport { EditorView } from "@codemirror/view";\\nexport const v = [diff, EditorView];\\n'),
				clean: await lint("src/blocks/fixture.ts", 'import { parseNote } from "./note";\\nexport const f = parseNote;\\n'),
				ui: await lint("src/ui/fixture.ts", 'import { Notice } from "obsidian";\\nexport const n = Notice;\\n'),
			}));
		`) as Record<string, Array<[number, string, string]>>;
		expect(messages.runner.map(([line, rule]) => [line, rule])).toEqual([
			[1, "no-restricted-imports"],
			[2, "no-restricted-imports"],
			[3, "no-restricted-imports"],
		]);
		expect(messages.runner[0][2]).toContain("never imports obsidian");
		expect(messages.cli.map(([line, rule]) => [line, rule])).toEqual([[1, "no-restricted-imports"]]);
		expect(messages.view.map(([line, rule]) => [line, rule])).toEqual([
			[1, "no-restricted-imports"],
			[2, "no-restricted-imports"],
		]);
		expect(messages.view[0][2]).toContain("CLI bundle");
		expect(messages.clean).toEqual([]);
		expect(messages.ui).toEqual([]);
	});

	it("is part of the project's config for every core folder", () => {
		const rules = eslintEval(`
			import { ESLint } from "eslint";
			const eslint = new ESLint();
			const files = ["src/blocks/note.ts", "src/runner/executor.ts", "src/settings/keymap.ts", "src/cli/main.ts", "src/ui/notify.ts"];
			const out = {};
			for (const f of files) out[f] = (await eslint.calculateConfigForFile(f)).rules["no-restricted-imports"];
			console.log(JSON.stringify(out));
		`) as Record<string, unknown[]>;
		for (const f of ["src/blocks/note.ts", "src/runner/executor.ts", "src/settings/keymap.ts", "src/cli/main.ts"]) {
			expect(rules[f][0]).toBe(2);
			expect(JSON.stringify(rules[f])).toContain('"name":"obsidian"');
		}
		expect(rules["src/ui/notify.ts"]?.[0] ?? 0).not.toBe(2);
	});
});
