// Jest stand-in for `import wasm from "sql.js/dist/sql-wasm.wasm"`: the same base64 string esbuild embeds.
// (The path is built by hand: jest's require.resolve would map the name back to this file.)
"use strict";
const path = require("node:path");
const bytes = require("node:fs").readFileSync(path.join(__dirname, "..", "..", "node_modules", "sql.js", "dist", "sql-wasm.wasm"));
module.exports = { __esModule: true, default: bytes.toString("base64") };
