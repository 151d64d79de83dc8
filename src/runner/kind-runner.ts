import type { AliasPath, Lookup, NoteBlock } from "../blocks";
import type { ExecuteOptions, ExecutorDeps } from "./executor";
import type { Preparation, PrepareContext } from "./prepare";
import type { BlockResult, KindOptions, KindRun } from "./result";

/** What `runBlocks` hands a kind's runner for one block: its references' sources, the ports, the run's options. */
export interface BlockRunContext {
	prepare: PrepareContext;
	deps: ExecutorDeps;
	/** The run's options; `envSnapshot` is the runner's to fill (the variables the block used). */
	execute: Omit<ExecuteOptions, "envSnapshot">;
}

/**
 * Everything the engine asks of one block kind: run a block to its end (never rejecting: every
 * end is a result, its history row recorded), and read its finished run for `{{alias.…}}`. What
 * the kind needs from the host (`KindDeps`), what a caller may ask of it (`KindOptions`) and
 * its run's shape (`KindRuns`) are its own, declared beside it.
 */
export interface KindRunner<B extends NoteBlock> {
	run(block: B, ctx: BlockRunContext): Promise<BlockResult>;
	read(result: Extract<KindRun, { kind: B["kind"] }>, path: AliasPath): Lookup;
	/** False when a target run asked this way is not what references read (a db block's plan is not its rows); default true. */
	keepsForReferences?(options: Partial<KindOptions>): boolean;
	/**
	 * For a kind that exports to a snippet (docs/export.md): its block as Run would send it now,
	 * with what the kind adds for its formats (`KindPreparations`). Absent: the kind has no export.
	 */
	prepareExport?(block: B, ctx: PrepareContext): Preparation;
}

/**
 * A kind's runner whose module is required on its first run or read, not at Obsidian's start:
 * main.js carries the kind's engine as a text module (docs/architecture.md, "Text modules").
 * `prepareExport` is handed apart, from a module loaded at start, so that asking whether a kind
 * exports loads no engine.
 */
export function onFirstUse<B extends NoteBlock>(load: () => KindRunner<B>, prepareExport?: NoInfer<KindRunner<B>["prepareExport"]>): KindRunner<B> {
	let runner: KindRunner<B> | undefined;
	const loaded = () => (runner ??= load());
	return {
		run: (block, ctx) => loaded().run(block, ctx),
		read: (result, path) => loaded().read(result, path),
		keepsForReferences: (options) => loaded().keepsForReferences?.(options) ?? true,
		...(prepareExport ? { prepareExport } : {}),
	};
}
