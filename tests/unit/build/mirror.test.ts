/**
 * Unit specs mirror src/: tests/unit/<path>.test.ts is the spec of src/<path>.ts (main.ts for
 * tests/unit/main.test.ts), so a module's spec is found without searching and a spec outlives no
 * module. The integration, e2e, desktop and interop suites are organised by layer, not by module;
 * integration's folders are named after src's areas (tests/integration/runner/db for src/runner/db).
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";

const ROOT = join(__dirname, "..", "..", "..");

/** Specs of the repository as a whole rather than of one module: the bundle, lint rules, the import graph, minAppVersion, this check. */
const REPO_CHECKS = "tests/unit/build/";

/**
 * Specs allowed at a path of their own while they wait for a move (none today). A listed spec that
 * mirrors its module, or is gone, fails the check too, so the list only shrinks.
 */
const NOT_YET_MOVED: ReadonlySet<string> = new Set<string>([]);

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

describe("unit specs mirror src/", () => {
	const specs = files(join(ROOT, "tests", "unit"))
		.map((f) => posix(relative(ROOT, f)))
		.filter((f) => f.endsWith(".test.ts"));
	const modules = new Set([...files(join(ROOT, "src")), join(ROOT, "main.ts")].map((f) => posix(relative(ROOT, f))));

	it("every spec under tests/unit sits at the path of the module it tests", () => {
		expect(misplacedSpecs(specs, modules).filter((spec) => !NOT_YET_MOVED.has(spec))).toEqual([]);
	});

	it("lists only specs that are still misplaced as not yet moved", () => {
		const stale = [...NOT_YET_MOVED].filter((spec) => !existsSync(join(ROOT, spec)) || !misplacedSpecs([spec], modules).length);
		expect(stale).toEqual([]);
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

describe("integration folders", () => {
	it("are named after an area of src/", () => {
		const area = (dir: string) => posix(relative(join(ROOT, "tests", "integration"), dir));
		const unnamed = folders(join(ROOT, "tests", "integration"))
			.map(area)
			.filter((dir) => !INTEGRATION_OUTSIDE_SRC.has(dir) && !existsSync(join(ROOT, "src", dir)));
		expect(unnamed).toEqual([]);
	});
});
