/**
 * Unit specs mirror src/: tests/unit/<path>.test.ts is the spec of src/<path>.ts (main.ts for
 * tests/unit/main.test.ts), so a module's spec is found without searching and a spec outlives no
 * module. The other way round, a module with logic has its spec: "logic" is, mechanically, a
 * function, method, constructor or accessor body, an arrow function or a class anywhere in the
 * module's syntax tree (TypeScript's own parser), so type-only modules, declaration files, pure
 * re-exports (`export *`) and data tables (the locales) need none. The integration, e2e, desktop
 * and interop suites are organised by layer, not by module; integration's folders are named after
 * src's areas (tests/integration/runner/db for src/runner/db).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";

const ROOT = join(__dirname, "..", "..", "..");

/** Specs of the repository as a whole rather than of one module: the bundle, lint rules, the import graph, minAppVersion, this check. */
const REPO_CHECKS = "tests/unit/build/";

/** Integration folders that test something outside src/: release is scripts/release.mjs. */
const INTEGRATION_OUTSIDE_SRC: ReadonlySet<string> = new Set(["release"]);

function folders(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(dir, e.name), ...folders(join(dir, e.name))] : []));
}

function files(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

const posix = (path: string) => path.split(sep).join("/");

/** The module a spec at this path is the spec of. */
export function mirroredModule(spec: string): string {
	const path = spec.replace(/^tests\/unit\//, "").replace(/\.test\.ts$/, ".ts");
	return path === "main.ts" ? path : `src/${path}`;
}

/** Specs (repository-relative, `/`-separated) whose mirrored module is not among `modules`, repository checks aside. */
export function misplacedSpecs(specs: readonly string[], modules: ReadonlySet<string>): string[] {
	return specs.filter((spec) => !spec.startsWith(REPO_CHECKS) && !modules.has(mirroredModule(spec)));
}

/** Whether a module's source holds behaviour (a body or a class) rather than only types, re-exports or data. */
export function hasLogic(source: string): boolean {
	const found = (node: ts.Node): boolean =>
		((ts.isFunctionLike(node) && "body" in node && node.body !== undefined) || ts.isClassLike(node)) || ts.forEachChild(node, found) === true;
	return found(ts.createSourceFile("module.ts", source, ts.ScriptTarget.Latest));
}

/** The spec that mirrors a module (the inverse of `mirroredModule`). */
export function mirroredSpec(module: string): string {
	return `tests/unit/${module.replace(/^src\//, "").replace(/\.ts$/, ".test.ts")}`;
}

/** Modules among `modules` (with their sources) that hold logic and have no spec among `specs`. */
export function unspecced(modules: ReadonlyMap<string, string>, specs: ReadonlySet<string>): string[] {
	return [...modules].filter(([module, source]) => hasLogic(source) && !specs.has(mirroredSpec(module))).map(([module]) => module);
}

describe("unit specs mirror src/", () => {
	const specs = files(join(ROOT, "tests", "unit"))
		.map((f) => posix(relative(ROOT, f)))
		.filter((f) => f.endsWith(".test.ts"));
	const modules = new Set([...files(join(ROOT, "src")), join(ROOT, "main.ts")].map((f) => posix(relative(ROOT, f))));

	it("every spec under tests/unit sits at the path of the module it tests", () => {
		expect(misplacedSpecs(specs, modules)).toEqual([]);
	});

	it("finds a spec whose module is elsewhere or gone (the check can fail)", () => {
		const known = new Set(["src/runner/response/format.ts", "src/cli/commands/diff.ts", "main.ts"]);
		const specsHere = [
			"tests/unit/runner/response/format.test.ts",
			"tests/unit/runner/response.test.ts",
			"tests/unit/cli/diff.test.ts",
			"tests/unit/main.test.ts",
			"tests/unit/build/bundle.test.ts",
		];
		expect(misplacedSpecs(specsHere, known)).toEqual(["tests/unit/runner/response.test.ts", "tests/unit/cli/diff.test.ts"]);
	});
});

describe("modules with logic have their spec", () => {
	const specs = new Set(files(join(ROOT, "tests", "unit")).map((f) => posix(relative(ROOT, f))));
	const modules = new Map(
		[...files(join(ROOT, "src")).filter((f) => f.endsWith(".ts")), join(ROOT, "main.ts")].map((f) => [posix(relative(ROOT, f)), readFileSync(f, "utf8")]),
	);

	const waiting = new Set(unspecced(modules, specs));

	it("every module with logic has a spec at its mirrored path", () => {
		expect([...waiting]).toEqual([]);
	});

	it("finds a module with logic and no spec (the check can fail)", () => {
		const here = new Map([
			["src/blocks/lines.ts", "export const splitLines = (text: string) => text.split('\\n');"],
			["src/runner/result.ts", "export class Result {}"],
			["src/runner/kind-runner.ts", "export interface KindRunner { run(): void; }\nexport type Run = () => void;"],
			["src/blocks/index.ts", 'export * from "./lines";'],
			["src/types/modules.d.ts", 'declare module "sql.js" { export function init(): void; }'],
			["src/ui/locales/en.ts", 'export const en = { run: "Run" };'],
			["src/settings/defaults.ts", "export function defaults() { return {}; }"],
			["main.ts", "export default class Plugin {}"],
		]);
		const specsHere = new Set(["tests/unit/settings/defaults.test.ts", "tests/unit/main.test.ts"]);
		expect(unspecced(here, specsHere)).toEqual(["src/blocks/lines.ts", "src/runner/result.ts"]);
	});
});

describe("integration folders", () => {
	it("are named after an area of src/", () => {
		const area = (dir: string) => posix(relative(join(ROOT, "tests", "integration"), dir));
		const unnamed = folders(join(ROOT, "tests", "integration"))
			.map(area)
			.filter((dir) => !INTEGRATION_OUTSIDE_SRC.has(dir) && !existsSync(join(ROOT, "src", dir)));
		expect(unnamed).toEqual([]);
	});
});
