"use strict";
/**
 * Loads the bundled CLI through V8's code cache. Compiling dist/cli.js (over 1 MB) and then each
 * function a command runs costs a short run more than its requests do; a cache written at the
 * end of an earlier run of the same command holds both, so V8 skips them. The cache is made
 * after the run, not at compile time, because most of the CLI's functions compile lazily while it
 * runs. It is only an optimisation: any failure to read or write it means a plain compile.
 *
 * Where: RUNNABLE_BLOCKS_COMPILE_CACHE names a folder, or `off` turns the cache off; otherwise
 * the user's cache folder (XDG_CACHE_HOME, ~/Library/Caches, %LOCALAPPDATA%), `runnable-blocks`.
 */
const fs = require("node:fs");
const Module = require("node:module");
const os = require("node:os");
const path = require("node:path");
const vm = require("node:vm");

function cacheFolder(env = process.env) {
	const chosen = env.RUNNABLE_BLOCKS_COMPILE_CACHE;
	if (chosen === "off" || chosen === "0") return null;
	if (chosen) return chosen;
	const home = os.homedir();
	const base =
		env.XDG_CACHE_HOME ||
		(process.platform === "win32" ? env.LOCALAPPDATA || path.join(home, "AppData", "Local") : process.platform === "darwin" ? path.join(home, "Library", "Caches") : path.join(home, ".cache"));
	return path.join(base, "runnable-blocks", "compile-cache");
}

/** Commands run different functions, so each has its own cache. */
function commandOf(argv) {
	return /^[a-z][a-z-]{0,19}$/.test(argv[2] ?? "") ? argv[2] : "other";
}

function save(script, folder, file, key) {
	try {
		fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
		// Another CLI process may read the file meanwhile: it sees the old cache or the new one, whole.
		const partial = `${file}.${process.pid}.partial`;
		fs.writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
		fs.renameSync(partial, file);
		// Caches of other builds and Node versions are never read again.
		for (const name of fs.readdirSync(folder)) if (!name.startsWith(key)) fs.rmSync(path.join(folder, name), { force: true });
	} catch {
		// A cache that cannot be written only costs the next run its compile.
	}
}

/** Compiles and evaluates a CommonJS file as `require` would, with the code cache; returns its exports. */
function load(file) {
	const code = fs.readFileSync(file, "utf8");
	const folder = cacheFolder();
	// V8 checks a cache against the source's length, not its text, so the key names the build by
	// its file's size and time (hashing the text needs node:crypto, which costs more than it saves).
	const stat = fs.statSync(file);
	const key = folder && `${stat.size.toString(36)}-${Math.round(stat.mtimeMs).toString(36)}-${process.version}-${process.arch}`;
	const cacheFile = folder && path.join(folder, `${key}-${commandOf(process.argv)}.v8`);
	let cachedData;
	try {
		if (cacheFile) cachedData = fs.readFileSync(cacheFile);
	} catch {
		// None yet.
	}
	const script = new vm.Script(Module.wrap(code), { filename: file, cachedData });
	if (cacheFile && (!cachedData || script.cachedDataRejected)) process.once("exit", () => save(script, folder, cacheFile, key));
	const module_ = { exports: {}, filename: file, id: file };
	script.runInThisContext()(module_.exports, Module.createRequire(file), module_, file, path.dirname(file));
	return module_.exports;
}

module.exports = { load, cacheFolder, commandOf };
