// `npm run bench`: every benchmark in turn (panel needs the production build: run `npm run build` first).
import { spawnSync } from "node:child_process";

const benches = [["parse"], ["editor"], ["search"], ["runner"], ["panel"], ["first-run"]];
let failed = 0;
for (const args of benches) {
	console.log(`\n=== bench/${args[0]} ===`);
	const r = spawnSync(process.execPath, ["bench/run.mjs", ...args], { stdio: "inherit" });
	if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
