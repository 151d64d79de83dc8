import type { AliasPath, Lookup, NoteBlock } from "../blocks";
import type { ExecuteOptions, ExecutorDeps } from "./executor";
import type { Preparation, PrepareContext } from "./prepare";
import type { BlockResult, KindOptions, KindRun } from "./result";
import type { LocateFile } from "./snippets/file-body";

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
	/** For a kind that exports to snippets (docs/export.md). Absent: the kind has no export. */
	export?: KindExport<B>;
	/** Loads the kind's engine now (onFirstUse): before a first run, in an idle moment, rather than inside it. */
	load?(): void;
	/** Its blocks send through the host's HTTP transport (`deps.transport`): preparing a run of the kind makes it too. */
	readonly sendsThroughTransport?: boolean;
}

/** A block prepared for export: the request Run would send now, with what its kind adds (`KindPreparations`). */
export type Prepared = Extract<Preparation, { ok: true }>;

/** What a snippet asks of the host. */
export interface SnippetOptions {
	/** The path a snippet names for a `< file` body part or message (absolute where the host knows it). */
	locate?: LocateFile;
}

/** How a kind writes its blocks as snippets: code that main.js carries as a text module, required on the first export. */
export interface SnippetWriter {
	/** The block in one of its kind's formats; an `ExportError` when the request cannot be written in it. */
	snippet(format: string, prepared: Prepared, name: string | null, opts: SnippetOptions): string;
	/** The request's lines in a `.http` file, below its `###` line (`forFile`: written into the vault, secrets kept as references). */
	httpFileLines(prepared: Prepared, forFile: boolean): string[];
}

/** A kind's export: its preparation and formats, loaded at start, and its writer, loaded on the first export. */
export interface KindExport<B extends NoteBlock> {
	/** Its block as Run would send it now, with what the kind adds for its formats. */
	prepare(block: B, ctx: PrepareContext): Preparation;
	/** What its messages call the kind ("WebSocket"). */
	readonly name: string;
	/** Its formats, in the order menus and the CLI list them. */
	readonly formats: readonly string[];
	writer(): SnippetWriter;
}

/**
 * A kind's runner whose module is required on its first run or read, not at Obsidian's start:
 * main.js carries the kind's engine as a text module (docs/architecture.md, "Text modules").
 * Its `export` is handed apart, from modules loaded at start, so that asking whether a kind
 * exports, and to what, loads no engine.
 */
export function onFirstUse<B extends NoteBlock>(load: () => KindRunner<B>, exports?: NoInfer<KindExport<B>>, traits: Pick<KindRunner<B>, "sendsThroughTransport"> = {}): KindRunner<B> {
	let runner: KindRunner<B> | undefined;
	const loaded = () => (runner ??= load());
	return {
		run: (block, ctx) => loaded().run(block, ctx),
		read: (result, path) => loaded().read(result, path),
		keepsForReferences: (options) => loaded().keepsForReferences?.(options) ?? true,
		load: () => void loaded(),
		...(exports ? { export: exports } : {}),
		...traits,
	};
}
