// `npm run release`: the production build, checked, copied to dist/release/ — the three files a
// GitHub release attaches (main.js, manifest.json, styles.css) and nothing else.
//
// Fails (exit 1) when
// - package.json, manifest.json and versions.json disagree: the three versions must be the same
//   x.y.z, and versions.json must map it to manifest.json's minAppVersion;
// - manifest.json's minAppVersion is lower than the newest `@since` of the Obsidian APIs the code
//   uses (scripts/min-app-version.mjs);
// - a file is over its size budget (BUDGETS below: main.js 2.25 MiB, styles.css 100 KiB,
//   manifest.json 4 KiB). Obsidian reads main.js on every start-up, on phones too; the bundle
//   today is about 2.1 MiB, of which under 300 KiB is evaluated at load (the rest are text modules, compiled on first use).
//
// Options: --no-build (check and copy what is already built), --no-api-check (skip the
// minAppVersion analysis, which takes seconds; tests/unit/build covers it), --budget FILE=BYTES (override a
// budget, for tests), --out DIR (default dist/release). dist/cli.js, the CLI, is left alone.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { analyse, compareVersions } from "./min-app-version.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const FILES = ["main.js", "manifest.json", "styles.css"];
export const BUDGETS = { "main.js": 2.25 * 1024 * 1024, "manifest.json": 4 * 1024, "styles.css": 100 * 1024 };

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const readJson = (f) => JSON.parse(readFileSync(join(root, f), "utf8"));

function parseArgs(argv) {
	const opts = { build: true, apiCheck: true, out: join(root, "dist", "release"), budgets: { ...BUDGETS } };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === "--no-build") opts.build = false;
		else if (a === "--no-api-check") opts.apiCheck = false;
		else if (a === "--out") opts.out = resolve(argv[++i]);
		else if (a === "--budget") {
			const [file, bytes] = (argv[++i] ?? "").split("=");
			if (!(file in BUDGETS) || !/^\d+$/.test(bytes ?? "")) throw new Error(`release: --budget wants FILE=BYTES with FILE one of ${FILES.join(", ")}`);
			opts.budgets[file] = Number(bytes);
		} else throw new Error(`release: unknown option ${a}`);
	}
	return opts;
}

/** The problems with the three version fields (empty when they agree). */
function versionProblems(apiCheck) {
	const pkg = readJson("package.json");
	const manifest = readJson("manifest.json");
	const versions = readJson("versions.json");
	const problems = [];
	if (!/^\d+\.\d+\.\d+$/.test(manifest.version)) problems.push(`manifest.json version "${manifest.version}" is not x.y.z (Obsidian compares it as such)`);
	if (pkg.version !== manifest.version) problems.push(`package.json version ${pkg.version} differs from manifest.json version ${manifest.version}`);
	if (versions[manifest.version] !== manifest.minAppVersion) {
		problems.push(`versions.json maps ${manifest.version} to ${versions[manifest.version] ?? "nothing"}, manifest.json's minAppVersion is ${manifest.minAppVersion}`);
	}
	const required = apiCheck ? analyse(root).required : null;
	if (required && compareVersions(manifest.minAppVersion, required) < 0) {
		problems.push(`manifest.json minAppVersion ${manifest.minAppVersion} is lower than ${required}, the newest API the code uses (node scripts/min-app-version.mjs)`);
	}
	return { problems, manifest };
}

function main(argv) {
	const opts = parseArgs(argv);
	if (opts.build) {
		const r = spawnSync(process.execPath, [join(root, "esbuild.config.mjs"), "production"], { cwd: root, stdio: "inherit" });
		if (r.status !== 0) {
			console.error("release: the production build failed");
			return 1;
		}
	}
	const { problems, manifest } = versionProblems(opts.apiCheck);
	const sizes = [];
	for (const f of FILES) {
		const src = join(root, f);
		if (!existsSync(src)) {
			problems.push(`${f} is missing (run without --no-build)`);
			continue;
		}
		const size = statSync(src).size;
		sizes.push({ f, size });
		if (size > opts.budgets[f]) problems.push(`${f} is ${kib(size)}, over its budget of ${kib(opts.budgets[f])}`);
	}
	console.log(`Runnable Blocks ${manifest.version} (minAppVersion ${manifest.minAppVersion})`);
	for (const { f, size } of sizes) console.log(`  ${f.padEnd(14)} ${kib(size).padStart(11)}   budget ${kib(opts.budgets[f])}`);
	if (problems.length) {
		for (const p of problems) console.error(`release: ${p}`);
		console.error("release: nothing copied");
		return 1;
	}
	rmSync(opts.out, { recursive: true, force: true });
	mkdirSync(opts.out, { recursive: true });
	for (const f of FILES) copyFileSync(join(root, f), join(opts.out, f));
	const rel = relative(root, opts.out);
	console.log(`Copied to ${rel.startsWith("..") ? opts.out : rel}/ — attach these three files to the GitHub release tagged ${manifest.version}.`);
	return 0;
}

try {
	process.exitCode = main(process.argv.slice(2));
} catch (e) {
	console.error(e instanceof Error ? e.message : String(e));
	process.exitCode = 2;
}
