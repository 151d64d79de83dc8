/**
 * Evaluates a module that main.js carries as text (esbuild.config.mjs, `TEXT_MODULES`): the heavy
 * packages (sql.js, the database drivers, tough-cookie, the merge view, the SQL language…) are
 * neither compiled nor evaluated while Obsidian starts the plugin, only on their first `require`.
 * Obsidian loads main.js as one CommonJS function and has no `import()` for chunks, and the store
 * ships main.js alone, so the code waits in main.js as a string literal, which the engine only
 * scans. This is the same CommonJS wrapper Obsidian builds around main.js itself.
 *
 * `requires` names every module the text asks for: Obsidian's and Node's (through main.js's own
 * `require`), other text modules, and the modules of main.js it shares (one copy, one state).
 */
export function evaluateTextModule(id: string, text: string, requires: Readonly<Record<string, () => unknown>>): unknown {
	const module = { exports: {} as unknown };
	const require = (name: string): unknown => {
		const get = Object.prototype.hasOwnProperty.call(requires, name) ? requires[name] : undefined;
		if (!get) throw new Error(`The bundled module ${id} asked for ${name}, which the plugin does not provide`);
		return get();
	};
	// sourceURL: developer tools and stack traces name the module instead of an anonymous script.
	const run = new Function("module", "exports", "require", `${text}\n//# sourceURL=runnable-blocks/${id}`) as (m: typeof module, e: unknown, r: typeof require) => void;
	run(module, module.exports, require);
	return module.exports;
}
