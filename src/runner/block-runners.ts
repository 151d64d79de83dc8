import { checkAssertions, definesVariablesOnly, type BlockLanguage, type HttpNoteBlock, type NoteBlock } from "../blocks";
import { bodyText } from "./alias-values";
import { dbErrorAt } from "./db/db-result";
import { executeDb, prepareDb } from "./db/run-db";
import { executeRequest, failedBeforeStart, type ExecuteOptions, type ExecutorDeps } from "./executor";
import { withFileParts } from "./file-parts";
import { invalidBlock, prepareRequest, referenceSources, type PrepareContext } from "./prepare";
import type { BlockResult } from "./result";

/** What `runBlocks` hands a kind's runner for one block: its references' sources, the ports, the run's options. */
export interface BlockRunContext {
	prepare: PrepareContext;
	deps: ExecutorDeps;
	/** The run's options; `envSnapshot` is the runner's to fill (the variables the block used). */
	execute: Omit<ExecuteOptions, "envSnapshot">;
}

/** Runs one block of a kind to its end. Never rejects: every end is a `BlockResult`. */
export type BlockRunner<B extends NoteBlock = NoteBlock> = (block: B, ctx: BlockRunContext) => Promise<BlockResult>;

/** An http block: references resolved into a request, then sent through the transport. */
const runHttpBlock: BlockRunner<HttpNoteBlock> = async (block, ctx) => {
	const prepared = prepareRequest(block, ctx.prepare);
	if (!prepared.ok) return failedBeforeStart(prepared.error);
	const read = await withFileParts(prepared.request, referenceSources(ctx.prepare), ctx.deps.files, ctx.execute.filePath);
	if (!read.ok) return failedBeforeStart(read.error, prepared.request);
	const result = await executeRequest(read.request, ctx.deps, { ...ctx.execute, envSnapshot: prepared.envSnapshot });
	return withAssertions(block, result);
};

/** The block's `??` assertions checked once a response arrived (docs/blocks.md). */
function withAssertions(block: HttpNoteBlock, result: BlockResult): BlockResult {
	const lines = block.http.assertions;
	if (lines.length === 0 || !result.head) return result;
	const noteLine = (k: number) => block.fence.startLine + 2 + k;
	const response = { status: result.head.status, headers: result.head.headers, body: bodyText(result), durationMs: result.timing?.total ?? 0 };
	return { ...result, assertions: checkAssertions(lines.map((a) => ({ line: noteLine(a.line), text: a.text })), response) };
}

/** A db block: connection looked up, references bound as parameters, statements run by its driver. */
const runDbBlock: BlockRunner<Extract<NoteBlock, { kind: "db" }>> = async (block, ctx) => {
	const prepared = prepareDb(block, ctx.deps.db, ctx.prepare);
	if (!prepared.ok) return { ...failedBeforeStart(prepared.error), ...(prepared.errorAt ? { db: dbErrorAt(block, prepared.errorAt) } : {}) };
	return executeDb(prepared.prepared, ctx.deps, ctx.execute);
};

type RunnerRegistry = { readonly [L in BlockLanguage]?: BlockRunner<Extract<NoteBlock, { kind: L }>> };

/** The runner of each kind, one line per kind. */
export const BLOCK_RUNNERS: RunnerRegistry = {
	http: runHttpBlock,
	db: runDbBlock,
};

/** A kind with no runner yet: its blocks fail before anything is sent, saying why. */
const notRunnable: BlockRunner = (block) => Promise.resolve(failedBeforeStart(invalidBlock(block)));

/**
 * Whether Run runs the block: its kind has a runner and the fence sends something (one of only
 * `@name = value` lines is read by the blocks below it, never run). Validity is not asked: an
 * invalid block runs, to fail saying why. The plugin's and the CLI's run all pick blocks with it.
 */
export function isRunnable(block: NoteBlock): boolean {
	return BLOCK_RUNNERS[block.kind] !== undefined && !definesVariablesOnly(block);
}

/** The runner of a block's kind. */
export function runnerOf(block: NoteBlock): BlockRunner {
	// The registry pairs each language with its own block type; the lookup by `block.kind` keeps that pairing.
	return (BLOCK_RUNNERS[block.kind] as BlockRunner | undefined) ?? notRunnable;
}
