// The text of a `worker:` module in jest (esbuild gives main.js the bundled worker; see esbuild.config.mjs).
module.exports = { __esModule: true, default: "" };
