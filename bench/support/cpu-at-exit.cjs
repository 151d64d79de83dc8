// Preloaded into a child process (node --require): at exit, writes the process's CPU time (user +
// system, ms) to the file RB_CPU_FILE names, so a benchmark can time a child by CPU, steadier than
// wall time on a loaded machine.
const { writeFileSync } = require("node:fs");
process.on("exit", () => {
	const c = process.cpuUsage();
	if (process.env.RB_CPU_FILE) writeFileSync(process.env.RB_CPU_FILE, String((c.user + c.system) / 1000));
});
