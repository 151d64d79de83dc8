// `npm run bench`: every benchmark in turn, then bench/RESULTS.md, the table of their figures
// (each benchmark reports its figures through bench/support/report.ts). Needs `npm run build`
// first (runner, panel, first-run and scroll use the built CLI and main.js). Each benchmark is bounded:
// the whole run takes a few minutes on a 2-core machine.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";

const benches = [["parse"], ["editor"], ["search"], ["runner"], ["bundle"], ["panel"], ["first-run"], ["scroll"]];
// Stream panel (issue 25): 100,000 WebSocket messages through the panel in Chromium.
benches.push(["stream-panel"]);
benches.push(["streams"]); // Streams through the CLI (issue 25): WebSocket messages per second against a bare ws client.
benches.push(["suite"]); // A vault as a suite (issue 30): run notes --parallel 1, 2 and 4 on a 50 ms server.
benches.push(["parallel"]); // Parallel run all (issue 30): 8 independent blocks at 50 ms each, parallel = 4 vs 1.
benches.push(["pin"]); // Pinning a 10 MB response (issue 28): the longest task from the click to the pin rendered.
benches.push(["first-use"]); // Start budget (issue 29): each feature's first use (db, diff, chat, cookie), longest task against 50 ms.
benches.push(["vcs-conflict"]); // Git you can undo (issue 27): the conflict view with 2,000 conflicting lines in Chromium, longest task against 100 ms.
mkdirSync("bench/.cache", { recursive: true });
const results = resolve("bench/.cache/results.jsonl");
rmSync(results, { force: true });
let failed = [];
const started = Date.now();
for (const args of benches) {
	console.log(`\n=== bench/${args[0]} ===`);
	const r = spawnSync(process.execPath, ["bench/run.mjs", ...args], { stdio: "inherit", env: { ...process.env, RB_BENCH_RESULTS: results } });
	if (r.status !== 0) failed.push(args[0]);
}
const rows = existsSync(results) ? readFileSync(results, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
const cell = (s) => String(s).replace(/\|/g, "\\|");
const lines = [
	"# Benchmark results",
	"",
	`Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC (${((Date.now() - started) / 60000).toFixed(1)} min, node ${process.version}, load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")}). Ratios are against baselines measured in the same run; [README.md](README.md) explains each baseline.`,
	"",
	"| benchmark | figure | measured | baseline | result | target | met |",
	"|---|---|---|---|---|---|---|",
	...rows.map((r) => `| ${cell(r.bench)} | ${cell(r.figure)} | ${cell(r.value)} | ${cell(r.baseline)} | ${cell(r.result)} | ${cell(r.target)} | ${r.met === null ? "—" : r.met ? "yes" : "**no**"} |`),
];
if (failed.length) lines.push("", `Failed to run: ${failed.join(", ")}.`);
writeFileSync("bench/RESULTS.md", lines.join("\n") + "\n");
console.log(`\nwrote bench/RESULTS.md (${rows.length} figures${failed.length ? `; failed: ${failed.join(", ")}` : ""})`);
process.exit(failed.length === 0 ? 0 : 1);
