// Jest transform mirroring esbuild's `binary` loader: a .wasm import becomes its bytes.
"use strict";
module.exports = {
	process(_src, filename) {
		return {
			code: `module.exports = require("node:fs").readFileSync(${JSON.stringify(filename)});`,
		};
	},
};
