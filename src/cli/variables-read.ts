import { fileVariablesFor, resolveTemplate, type NoteBlock, type ReferenceSources } from "../blocks";

const has = (values: Readonly<Record<string, string>>, name: string) => Object.prototype.hasOwnProperty.call(values, name);

/** A variable's value as a run sees it (src/runner/prepare.ts): the block's file variables first, then the environment's. */
function valueOf(name: string, file: Readonly<Record<string, string>>, environment: Readonly<Record<string, string>>): string | undefined {
	if (has(file, name)) return file[name];
	return has(environment, name) ? environment[name] : undefined;
}

/**
 * The variables a run of `targets` reads: those their references name, those named in turn by
 * the values of those variables, and those of the blocks they read through an alias
 * (`{{login.response…}}` runs login first). Nothing is resolved for real: it only says which
 * unset secrets matter to this run.
 */
export function variablesReadBy(note: readonly NoteBlock[], targets: readonly NoteBlock[], environment: Readonly<Record<string, string>>): Set<string> {
	const read = new Set<string>();
	const seen = new Set<NoteBlock>();
	const byAlias = new Map<string, NoteBlock>();
	for (const b of note) if (b.alias !== null && !byAlias.has(b.alias)) byAlias.set(b.alias, b);
	const queue = [...targets];
	for (let i = 0, block = queue[0]; block !== undefined; block = queue[++i]) {
		if (seen.has(block)) continue;
		seen.add(block);
		const file = fileVariablesFor(note, block);
		const sources: ReferenceSources = {
			builtin: () => ({ ok: true, value: "" }),
			alias: (path) => {
				const dependency = byAlias.get(path.alias);
				if (dependency) queue.push(dependency);
				return { ok: true, value: "" };
			},
			variable: (name) => {
				read.add(name);
				return valueOf(name, file, environment);
			},
		};
		for (const ref of block.references) resolveTemplate(ref.text, sources);
	}
	return read;
}
