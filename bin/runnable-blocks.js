#!/usr/bin/env node
// Thin launcher: the CLI is bundled by `npm run build` into dist/cli.js.
"use strict";
const path = require("node:path");
const fs = require("node:fs");
const built = path.join(__dirname, "..", "dist", "cli.js");
if (!fs.existsSync(built)) {
	process.stderr.write("runnable-blocks: the CLI is not built; run `npm run build` first\n");
	process.exit(2);
}
require("./compile-cache").load(built).runCli();
