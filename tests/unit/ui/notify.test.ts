import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Notice } from "obsidian";
import { notify } from "../../../src/ui/notify";

const root = join(__dirname, "../../..");
const sources = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? sources(join(dir, f)) : f.endsWith(".ts") ? [join(dir, f)] : []));

describe("notices", () => {
	it("say which plugin speaks", () => {
		const shown = (Notice as unknown as { shown: string[] }).shown;
		const before = shown.length;
		notify("copied as curl");
		expect(shown.slice(before)).toEqual(["Runnable Blocks: copied as curl"]);
	});

	it("go through notify() only: no bare new Notice in the plugin", () => {
		const files = [...sources(join(root, "src")), join(root, "main.ts")].filter((f) => !f.endsWith(join("ui", "notify.ts")));
		expect(files.filter((f) => /new Notice\(/.test(readFileSync(f, "utf8"))).map((f) => f.slice(root.length + 1))).toEqual([]);
	});
});
