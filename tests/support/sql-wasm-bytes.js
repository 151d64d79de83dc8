// Jest stand-in for `require("sql.js/dist/sql-wasm.wasm")`: the same text esbuild embeds
// (esbuild.config.mjs, `deflated-wasm`): the wasm raw-deflated, as base64.
// (The path is built by hand: jest's require.resolve would map the name back to this file.)
"use strict";
const path = require("node:path");
const bytes = require("node:fs").readFileSync(path.join(__dirname, "..", "..", "node_modules", "sql.js", "dist", "sql-wasm.wasm"));
module.exports = require("node:zlib").deflateRawSync(bytes, { level: 9 }).toString("base64");
