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
export function evaluateTextModule(id: string, carrier: string | Carrier, requires: Readonly<Record<string, () => unknown>>): unknown {
	const ready = typeof carrier === "string" ? carrier : (prepared.get(carrier) ?? carriedText(carrier));
	if (typeof carrier !== "string") {
		prepared.delete(carrier);
		evaluated.add(carrier);
	}
	const run = typeof ready === "function" ? ready : compiled(id, ready);
	const module = { exports: {} as unknown };
	const require = (name: string): unknown => {
		const get = Object.prototype.hasOwnProperty.call(requires, name) ? requires[name] : undefined;
		if (!get) throw new Error(`The bundled module ${id} asked for ${name}, which the plugin does not provide`);
		return get();
	};
	run(module, module.exports, require);
	return module.exports;
}

/** A text module's carrier: an empty function whose comment is the module's code. */
export type Carrier = () => void;

type ModuleFunction = (m: { exports: unknown }, e: unknown, r: (name: string) => unknown) => void;

/** What `prepareTextModule` did ahead of a module's first require: its code taken out, or compiled. */
const prepared = new WeakMap<Carrier, string | ModuleFunction>();
/** Carriers whose module was evaluated: a step asked for afterwards has nothing left to do. */
const evaluated = new WeakSet<Carrier>();

/**
 * Takes one step of a text module's evaluation ahead of its first `require`: "text" reads its code
 * out of the carrier, "compile" compiles it; the require then does what is left. Each step of a
 * large module (the core) can then be a task of its own, none of them long (main.ts).
 */
export function prepareTextModule(carrier: Carrier, step: "text" | "compile"): void {
	const done = prepared.get(carrier);
	if (typeof done === "function" || evaluated.has(carrier)) return;
	const text = done ?? carriedText(carrier);
	// The module's id is its mark line's (carriedTextOf).
	prepared.set(carrier, step === "text" ? text : compiled(/^\/\*! text module (\S+)/.exec(text)?.[1] ?? "text module", text));
}

function compiled(id: string, text: string): ModuleFunction {
	// sourceURL: developer tools and stack traces name the module instead of an anonymous script.
	return new Function("module", "exports", "require", `${text}\n//# sourceURL=runnable-blocks/${id}`) as ModuleFunction;
}

/**
 * A text module's code as it was bundled, from its carrier `function () {/*! text module <id>⏎…⏎*\/}`.
 * The build wrote each `*` + k backslashes + `/` of the code with one backslash more, so that no
 * `*` `/` ends the comment early; this takes the one back (`carrierComment` in esbuild.config.mjs).
 */
export function carriedText(carrier: Carrier): string {
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
