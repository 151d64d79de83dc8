// The text of a `worker:` module in jest (an import or a require of it) (esbuild gives main.js the bundled worker; see esbuild.config.mjs).
module.exports = "";
