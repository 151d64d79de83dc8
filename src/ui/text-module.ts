/**
 * Evaluates a module that main.js carries as text (esbuild.config.mjs, `TEXT_MODULES`): the heavy
 * packages (sql.js, the database drivers, tough-cookie, the merge view, the SQL language…) are
 * neither compiled nor evaluated while Obsidian starts the plugin, only on their first `require`.
 * Obsidian loads main.js as one CommonJS function and has no `import()` for chunks, and the store
 * ships main.js alone, so the code waits in main.js as the one comment of an empty function (its
 * carrier), which the engine skips like any comment: cheaper than a string literal, which it must
 * also copy and hash. The carrier's source text (`Function.prototype.toString` returns it exactly)
 * gives the code back. This is the same CommonJS wrapper Obsidian builds around main.js itself.
 *
 * `requires` names every module the text asks for: Obsidian's and Node's (through main.js's own
 * `require`), other text modules, and the modules of main.js it shares (one copy, one state).
 */
export function evaluateTextModule(id: string, carrier: string | (() => void), requires: Readonly<Record<string, () => unknown>>): unknown {
	const text = typeof carrier === "string" ? carrier : carriedText(carrier);
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

/**
 * A text module's code as it was bundled, from its carrier `function () {/*! text module <id>⏎…⏎*\/}`.
 * The build wrote each `*` + k backslashes + `/` of the code with one backslash more, so that no
 * `*` `/` ends the comment early; this takes the one back (`carrierComment` in esbuild.config.mjs).
 */
export function carriedText(carrier: () => void): string {
	return carriedTextOf(String(carrier));
}

/** `carriedText` of a carrier's source text, or of its comment alone. */
export function carriedTextOf(source: string): string {
	const open = source.indexOf("/*!");
	const close = source.lastIndexOf("*/");
	if (open < 0 || close < open) throw new Error("A text module's carrier has lost its comment (was main.js minified again?)");
	// The mark line stays: developer tools and the desktop host read the module's name from it.
	const marked = source.slice(open, close);
	const newline = marked.indexOf("\n");
	return `${marked.slice(0, newline)} */${marked.slice(newline, -1).replace(/\*\\(\\*)\//g, "*$1/")}`;
}
