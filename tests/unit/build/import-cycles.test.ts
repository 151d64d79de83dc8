/**
 * No module of the plugin imports itself back through others (type-only imports count: a cycle
 * of types is still two rooms that cannot change apart). Tarjan's strongly connected components
 * over the relative imports of src/ and main.ts, read with TypeScript's own pre-processor.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = join(__dirname, "..", "..", "..");

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

function importsOf(file: string): string[] {
	const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, false);
	return importedFiles
		.map((i) => i.fileName)
		.filter((name) => name.startsWith("."))
		.map((name) => resolve(dirname(file), name))
		.map((base) => [`${base}.ts`, join(base, "index.ts")].find((f) => existsSync(f)))
		.filter((f): f is string => f !== undefined);
}

/** The import graph's strongly connected components of more than one module. */
export function importCycles(files: readonly string[]): string[][] {
	const graph = new Map(files.map((f) => [f, importsOf(f)]));
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const cycles: string[][] = [];
	const visit = (v: string): void => {
		index.set(v, index.size);
		low.set(v, index.get(v) as number);
		stack.push(v);
		onStack.add(v);
		for (const w of graph.get(v) ?? []) {
			if (!index.has(w)) {
				visit(w);
				low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
			} else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
		}
		if (low.get(v) !== index.get(v)) return;
		const component: string[] = [];
		let w: string;
		do {
			w = stack.pop() as string;
			onStack.delete(w);
			component.push(w);
		} while (w !== v);
		if (component.length > 1) cycles.push(component.map((f) => relative(ROOT, f)).sort());
	};
	for (const f of graph.keys()) if (!index.has(f)) visit(f);
	return cycles;
}

describe("import graph", () => {
	it("has no cycles in src/ and main.ts", () => {
		expect(importCycles([...sources(join(ROOT, "src")), join(ROOT, "main.ts")])).toEqual([]);
	});

	it("finds a cycle when there is one (the check can fail)", () => {
		const dir = join(ROOT, "tests", "fixtures", "import-cycle");
		expect(importCycles(sources(dir))).toEqual([["tests/fixtures/import-cycle/a.ts", "tests/fixtures/import-cycle/b.ts"]]);
	});
});
