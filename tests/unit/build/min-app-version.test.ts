import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * manifest.json's minAppVersion must cover every Obsidian API the plugin uses, by the
 * `@since` tags of the `obsidian` typings (scripts/min-app-version.mjs computes it from the
 * code, so an API added later raises the requirement without anyone editing this test).
 */
const root = resolve(__dirname, "../../..");
const script = join(root, "scripts/min-app-version.mjs");

interface Use {
	symbol: string;
	since: string;
	file: string;
	line: number;
	guardedBy: string | null;
}
interface Analysis {
	required: string | null;
	uses: Use[];
}

function analyse(dir: string): Analysis {
	return JSON.parse(execFileSync(process.execPath, [script, "--json", "--root", dir], { encoding: "utf8", maxBuffer: 64 << 20 })) as Analysis;
}

function compare(a: string, b: string): number {
	const pa = a.split(".").map(Number);
	const pb = b.split(".").map(Number);
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const d = (pa[i] ?? 0) - (pb[i] ?? 0);
		if (d !== 0) return Math.sign(d);
	}
	return 0;
}

const readJson = (f: string) => JSON.parse(readFileSync(join(root, f), "utf8")) as Record<string, unknown>;

describe("minAppVersion", () => {
	jest.setTimeout(180_000);

	it("manifest.json and versions.json are not lower than the newest @since the code uses", () => {
		const { required, uses } = analyse(root);
		const manifest = readJson("manifest.json") as { version: string; minAppVersion: string };
		const versions = readJson("versions.json") as Record<string, string>;
		const tooNew = uses
			.filter((u) => !u.guardedBy && compare(u.since, manifest.minAppVersion) > 0)
			.map((u) => `${u.symbol} needs Obsidian ${u.since} (${u.file}:${u.line})`);
		// On failure the message names each symbol and the version it needs.
		expect(tooNew).toEqual([]);
		expect(required).not.toBeNull();
		expect(compare(manifest.minAppVersion, required as string)).toBeGreaterThanOrEqual(0);
		expect(versions[manifest.version]).toBe(manifest.minAppVersion);
	});

	describe("the analysis", () => {
		let dir: string;
		beforeAll(() => {
			dir = mkdtempSync(join(tmpdir(), "rb-min-app-"));
			symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
			writeFileSync(
				join(dir, "tsconfig.json"),
				JSON.stringify({ compilerOptions: { target: "ES2021", module: "ESNext", moduleResolution: "Bundler", lib: ["DOM", "ES2021"], types: [], strict: true, skipLibCheck: true } }),
			);
			writeFileSync(
				join(dir, "main.ts"),
				[
					'import { Plugin, requireApiVersion, type ButtonComponent, type SecretStorage } from "obsidian";',
					"export default class P extends Plugin {",
					"\tstorage?: SecretStorage; // a type only: not counted",
					"\tonload(): void {",
					'\t\tthis.app.secretStorage.getSecret("x");',
					"\t}",
					"\tstyle(b: ButtonComponent): void {",
					"\t\tif (requireApiVersion(\"1.13.0\")) b.setDestructive();",
					"\t}",
					"}",
				].join("\n"),
			);
			mkdirSync(join(dir, "src"));
			writeFileSync(
				join(dir, "src/a.ts"),
				['import type { DataAdapter } from "obsidian";', "export const append = (a: DataAdapter) => a.appendBinary(\"f\", new ArrayBuffer(1));"].join("\n"),
			);
		});
		afterAll(() => rmSync(dir, { recursive: true, force: true }));

		it("takes the highest @since of what runs, skips types and code behind requireApiVersion", () => {
			const { required, uses } = analyse(dir);
			const find = (symbol: string) => uses.find((u) => u.symbol === symbol);
			expect(find("App.secretStorage")).toMatchObject({ since: "1.11.4", file: "main.ts", line: 5, guardedBy: null });
			expect(find("SecretStorage.getSecret")).toMatchObject({ since: "1.11.4", guardedBy: null });
			expect(find("DataAdapter.appendBinary")).toMatchObject({ since: "1.12.3", file: "src/a.ts", guardedBy: null });
			expect(find("ButtonComponent.setDestructive")).toMatchObject({ since: "1.13.0", guardedBy: "1.13.0" });
			expect(uses.filter((u) => u.file === "main.ts" && u.line === 3)).toEqual([]);
			expect(required).toBe("1.12.3");
		});
	});
});
