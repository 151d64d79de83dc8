/**
 * bench/bundle — what the plugin bundle costs before it does anything: the size of main.js (and
 * how much of it is sql.js's wasm as base64) and of the CLI's dist/cli.js; the time Chromium's V8
 * takes to compile main.js (`new Function`, as Obsidian's loader does) and to evaluate it, in the
 * test host, against the same for a script of equal size holding only one string literal (the
 * floor of reading that many bytes of source), and the plugin's onload. The start budget (issue 29):
 * start = compile + evaluate + onload of main.js, beside the same for an empty plugin of the same
 * size (the floor), and the eager part of main.js (what is not a text module, docs/architecture.md).
 * main.ts starts the core (src/ui/plugin-core.ts) once the layout is ready, one task per step:
 * each task is measured too, with the layout held back during the load as Obsidian's start does.
 * Usage: node bench/run.mjs bundle   (after npm run build)
 */
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { launchHost } from "../../tests/e2e/support/host";
import { allTextModules, coreCode, eagerBytes } from "../../tests/support/text-modules";
import { report } from "../support/report";

const ROOT = resolve(__dirname, "..", "..");
const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

interface PageFigures {
	compile: number;
	evaluate: number;
	floorCompile: number;
	load: number;
	start: number;
	floorStart: number;
	/** The longest of the core's tasks (its code read, compiled, evaluated; its registrations). */
	core: number;
	/** Each of them, in order. */
	coreTasks: number[];
}

async function main(): Promise<void> {
	const main = readFileSync(join(ROOT, "main.js"), "utf8");
	const cli = statSync(join(ROOT, "dist", "cli.js")).size;
	const wasm = Math.max(0, ...[...main.matchAll(/"([A-Za-z0-9+/=]{100000,})"/g)].map((m) => m[1].length));
	const gzip = gzipSync(main).length;
	console.log(`main.js ${kib(main.length)} (gzip ${kib(gzip)}), of it sql.js wasm as base64 ${kib(wasm)} (${((100 * wasm) / main.length).toFixed(0)} %); dist/cli.js ${kib(cli)}`);
	const eager = eagerBytes(main);
	const coreEager = eagerBytes(coreCode(main));
	console.log(`compiled at start: ${kib(eager)}; when the layout is ready (the core): ${kib(coreEager)}; ${allTextModules(main).length} text modules, compiled on first use: ${kib(Buffer.byteLength(main) - eager - coreEager)}`);

	const host = await launchHost();
	try {
		const { page } = host;
		// Compile, 7 times, with a distinct trailing comment so V8's compilation cache never
		// answers; the floor is a script of the same length holding one string.
		const compiled = await page.evaluate(async () => {
			const code = await (await fetch("/main.js")).text();
			const floor = `module.exports = "${"x".repeat(code.length - 20)}";`;
			const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
			const t = { compile: [] as number[], floorCompile: [] as number[] };
			for (let i = 0; i < 7; i++) {
				let t0 = performance.now();
				new Function("module", "exports", "require", `${floor}\n//${i}`);
				t.floorCompile.push(performance.now() - t0);
				t0 = performance.now();
				new Function("module", "exports", "require", `${code}\n//${i}`);
				t.compile.push(performance.now() - t0);
			}
			return { compile: median(t.compile), floorCompile: median(t.floorCompile) };
		});
		// The start floor: an empty plugin of main.js's size (one string pads it), compiled, evaluated
		// and loaded the same way; median of 7.
		const floorStart = await host.page.evaluate(async () => {
			const size = (await (await fetch("/main.js")).text()).length;
			const head = "module.exports = class { load() { this.onload(); } onload() {} };\nmodule.exports.pad = ";
			const times: number[] = [];
			for (let i = 0; i < 7; i++) {
				const code = `${head}"${"x".repeat(Math.max(0, size - head.length - 10))}";\n//${i}`;
				const t0 = performance.now();
				const module = { exports: {} as unknown };
				(new Function("module", "exports", "require", code) as (m: unknown, e: unknown, r: unknown) => void)(module, module.exports, null);
				new (module.exports as new () => { load(): void })().load();
				times.push(performance.now() - t0);
			}
			return times.sort((a, b) => a - b)[3];
		});
		// The host's own loader (fetch, compile, evaluate, onload) with the layout held back, as at
		// Obsidian's start, timing the evaluation and the start: compile + evaluate + onload, from the
		// moment the code is in hand. Then the layout becomes ready, and main.ts starts the core
		// (src/ui/plugin-core.ts), one task per step, once Obsidian has shown the workspace.
		// Each of 5 samples in a browser of its own: V8 caches what a page compiled for the next
		// page of its process, and Obsidian starts cold. Medians.
		const samples: { evaluate: number; total: number; start: number; core: number; coreTasks: number[] }[] = [];
		for (let i = 0; i < 5; i++) {
			const fresh = await launchHost();
			samples.push(
				await fresh.api(async (h) => {
					const at = { evaluate: 0, total: 0, start: 0, core: 0, coreTasks: [] as number[] };
					let startedAt = 0;
					h.holdLayout();
					const t0 = performance.now();
					await h.loadPlugin((code, module, modules) => {
						startedAt = performance.now();
						const fn = new Function("module", "exports", "require", code) as (m: unknown, e: unknown, r: (n: string) => unknown) => void;
						const t = performance.now();
						fn(module, module.exports, (n) => modules[n]);
						at.evaluate = performance.now() - t;
					});
					at.start = performance.now() - startedAt;
					at.total = performance.now() - t0;
					// The core's tasks: the first in readyLayout, then main.ts's timers, each queued before the
					// probe that follows it, so each probe starts when one of them ended. The last registers the commands.
					const t1 = performance.now();
					h.readyLayout();
					at.coreTasks.push(performance.now() - t1);
					while (h.commandName("commit-all-changes") === null) {
						if (at.coreTasks.length > 10) throw new Error("the core did not start within 10 tasks of the layout");
						const t = performance.now();
						at.coreTasks.push(await new Promise<number>((r) => setTimeout(() => r(performance.now() - t), 0)));
					}
					at.core = Math.max(...at.coreTasks);
					return at;
				}),
			);
			await fresh.close();
		}
		const middle = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
		const median = (key: "evaluate" | "total" | "start" | "core") => middle(samples.map((x) => x[key]));
		const coreTasks = samples[0].coreTasks.map((_, i) => middle(samples.map((x) => x.coreTasks[i] ?? 0)));
		const loaded = { evaluate: median("evaluate"), total: median("total"), start: median("start"), core: median("core") };
		const figures: PageFigures = { ...compiled, evaluate: loaded.evaluate, load: loaded.total, start: loaded.start, core: loaded.core, coreTasks, floorStart };
		const tasks = figures.coreTasks.map((t) => t.toFixed(1)).join(" + ");
		const ratio = figures.compile / figures.floorCompile;
		console.log(`compile main.js ${figures.compile.toFixed(1)} ms vs a string of the same length ${figures.floorCompile.toFixed(1)} ms (${ratio.toFixed(1)}×); evaluate ${figures.evaluate.toFixed(1)} ms (compile: medians of 7; evaluate: once, Chromium); host load incl. fetch and onload ${figures.load.toFixed(0)} ms`);
		report("bundle", { figure: "main.js size", value: kib(main.length), baseline: `sql.js wasm base64 ${kib(wasm)}; gzip ${kib(gzip)}`, result: `${((100 * wasm) / main.length).toFixed(0)} % wasm`, target: "report", met: null });
		report("bundle", { figure: "dist/cli.js size", value: kib(cli), baseline: "—", result: "—", target: "report", met: null });
		console.log(`start (compile + evaluate + onload) ${figures.start.toFixed(1)} ms vs an empty plugin of the same size ${figures.floorStart.toFixed(1)} ms (start: median of 5 page loads; floor: median of 7); the core when the layout is ready, one task per step (its code read, compiled, evaluated; its registrations): ${tasks} ms (medians)`);
		report("bundle", { figure: "plugin start: compile + evaluate + onload (Chromium)", value: `${figures.start.toFixed(1)} ms`, baseline: `same-size empty plugin ${figures.floorStart.toFixed(1)} ms`, result: `${(figures.start / figures.floorStart).toFixed(1)}×`, target: "≤ 20 ms", met: figures.start <= 20 });
		report("bundle", { figure: "the core started when the layout is ready: the longest of its tasks (code read; compiled; evaluated; registrations)", value: `${figures.core.toFixed(1)} ms`, baseline: `start ${figures.start.toFixed(1)} ms`, result: `${tasks} ms`, target: "≤ 50 ms (each task)", met: figures.core <= 50 });
		report("bundle", { figure: "main.js compiled at start (not a text module)", value: kib(eager), baseline: `main.js ${kib(main.length)}`, result: `${((100 * eager) / Buffer.byteLength(main)).toFixed(0)} %`, target: "≤ 300 KiB", met: eager <= 300 * 1024 });
		report("bundle", { figure: "the core compiled when the layout is ready (not a text module of its own)", value: kib(coreEager), baseline: `main.js ${kib(main.length)}`, result: `${((100 * coreEager) / Buffer.byteLength(main)).toFixed(0)} %`, target: "≤ 300 KiB", met: coreEager <= 300 * 1024 });
		report("bundle", { figure: "main.js compile + evaluate (Chromium)", value: `${figures.compile.toFixed(1)} + ${figures.evaluate.toFixed(1)} ms`, baseline: `same-length string ${figures.floorCompile.toFixed(1)} ms`, result: `${ratio.toFixed(1)}× (compile)`, target: "report", met: null });
	} finally {
		await host.close();
	}
}

void main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
