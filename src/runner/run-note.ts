import { definesVariablesOnly, historyAlias, type NoteBlock } from "../blocks";
import { keepsForReferences, prepareContext, runBlock } from "./block-runners";
import type { ExecutorDeps } from "./executor";
import { failedError } from "./failures";
import { aliasBlocks, type RunScope } from "./prepare";
import { answerPrompts, type AskPrompts } from "./prompt-answers";
import { planRun, RunGraph, type PlannedBlock } from "./run-graph";
import { failedBeforeStart, type BlockResult, type KindOptions, type RunSnapshot } from "./result";

/** Where finished runs are kept between invocations (the session store in the plugin, a Map in the CLI). */
export interface ResultStore {
	get(alias: string): BlockResult | undefined;
	set(alias: string, result: BlockResult): void;
}

export interface RunContext extends RunScope {
	filePath: string;
	results: ResultStore;
	deps: ExecutorDeps;
	force?: boolean;
	signal?: AbortSignal;
	/** A per-block signal (the plugin cancels one block of a run-all); defaults to `signal`. */
	signalFor?: (block: NoteBlock) => AbortSignal;
	/** Value-based masking of URLs in history: the fallback for secrets that arrive with no span (echoed by a server). */
	maskUrl?: (url: string) => string;
	onBlockStart?: (block: NoteBlock, reason: "target" | "dependency") => void;
	onUpdate?: (block: NoteBlock, snapshot: RunSnapshot) => void;
	onBlockDone?: (block: NoteBlock, result: BlockResult) => void;
	/** How the targets run, by kind (a db block's load more or EXPLAIN); a block run as a dependency runs plainly. */
	kindOptions?: Partial<KindOptions>;
	/** How many blocks may run at once (user.toml `general.parallel`); default 1, one after another. */
	parallel?: number;
	/** Called once before anything starts with every block the run will end, in the order the runs are returned. */
	onPlan?: (blocks: readonly NoteBlock[]) => void;
	/** Asks a block's `# @prompt` values as it starts; absent: such a block fails, saying nothing here can ask. */
	ask?: AskPrompts;
	/**
	 * Runs what the block's `{{[[Note]]#alias.…}}` references need first (cross-note.ts); returns
	 * the block's result when it cannot run (a cycle, a failed dependency), else null.
	 */
	runOtherNotesFirst?: (block: NoteBlock, stack: readonly NoteBlock[]) => Promise<BlockResult | null>;
}

export interface BlockRun {
	block: NoteBlock;
	result: BlockResult;
	/** True when it ran because another block referenced it. */
	dependency: boolean;
}


/**
 * Runs `targets` (blocks of `note`). A block whose references (or `# @after`) name a block with no
 * result yet gets that block run first, once; a reference cycle fails the blocks in it. Blocks that
 * nothing connects run at once, at most `ctx.parallel` of them (run-graph.ts says what connects
 * them); a block that fails or is cancelled skips only the blocks that need it. The runs come back
 * in the note's order, whatever order they finished in.
 */
export async function runBlocks(note: readonly NoteBlock[], targets: readonly NoteBlock[], ctx: RunContext): Promise<BlockRun[]> {
	const aliases = new Set(aliasBlocks(note).keys());
	// The serial order, in which the graph starts blocks; the note's order, in which runs are returned.
	const order = planRun(note, targets.filter((t) => !definesVariablesOnly(t)), (alias) => ctx.results.get(alias) !== undefined);
	const plan = inNoteOrder(note, order);
	ctx.onPlan?.(plan.map((p) => p.block));
	const graph = new RunGraph(order, ctx.parallel ?? 1);
	const runs = new Map<NoteBlock, BlockRun>();

	const finish = ({ block, dependency }: PlannedBlock, result: BlockResult): void => {
		graph.finish(block, result);
		const kept = dependency || keepsForReferences(block, ctx.kindOptions);
		if (block.alias !== null && block.runnable && kept) ctx.results.set(block.alias, result);
		runs.set(block, { block, result, dependency });
		ctx.onBlockDone?.(block, result);
	};
	const execute = async ({ block, dependency }: PlannedBlock): Promise<BlockResult> => {
		// Only a block reached as a dependency has a chain that led to it (a target starts its own).
		const blocked = await ctx.runOtherNotesFirst?.(block, dependency ? chainTo(order, block) : []);
		if (blocked) return blocked;
		ctx.onBlockStart?.(block, dependency ? "dependency" : "target");
		const signal = ctx.signalFor?.(block) ?? ctx.signal;
		if (signal?.aborted) return failedBeforeStart(failedError("cancelled", undefined));
		const answered = await answerPrompts(block, prepareContext(note, block, ctx, aliases), { filePath: ctx.filePath, ask: ctx.ask, signal });
		if (!answered.ok) return answered.result;
		return runBlock(block, {
			prepare: answered.prepare,
			deps: ctx.deps,
			execute: {
				force: ctx.force,
				signal,
				filePath: ctx.filePath,
				historyAlias: historyAlias(block),
				maskUrl: ctx.maskUrl,
				onUpdate: (s) => ctx.onUpdate?.(block, s),
				...(ctx.kindOptions && !dependency ? { kindOptions: ctx.kindOptions } : {}),
			},
		});
	};

	await new Promise<void>((resolve, reject) => {
		let stopped = false;
		const pump = (): void => {
			for (let step = stopped ? null : graph.next(); step; step = stopped ? null : graph.next()) {
				const planned = step.planned;
				if (step.verdict === "fail") finish(planned, failedBeforeStart(step.error));
				else
					void execute(planned)
						.then((result) => {
							finish(planned, result);
							pump();
						})
						.catch((e: unknown) => {
							// A bug of ours (or a throwing callback): the run rejects as the serial loop did, and starts nothing more.
							stopped = true;
							reject(e instanceof Error ? e : new Error(String(e)));
						});
			}
			if (graph.done) resolve();
		};
		pump();
	});
	return plan.map((p) => runs.get(p.block)).filter((r): r is BlockRun => r !== undefined);
}

/** The plan sorted as the blocks stand in the note (a block of no note, as another note's, first: it ran for the others). */
function inNoteOrder(note: readonly NoteBlock[], order: readonly PlannedBlock[]): PlannedBlock[] {
	const position = new Map(note.map((b, i) => [b, i]));
	return [...order].sort((a, b) => (position.get(a.block) ?? -1) - (position.get(b.block) ?? -1));
}

/** The in-note chain that reached `block` as a dependency (outermost first), so a cycle across notes names it whole. */
function chainTo(order: readonly PlannedBlock[], block: NoteBlock): NoteBlock[] {
	const chain: NoteBlock[] = [];
	for (let at = block; ; ) {
		const by = order.find((p) => p.block !== block && p.needs.includes(at) && !chain.includes(p.block));
		if (!by) return chain.reverse();
		chain.push(by.block);
		at = by.block;
	}
}
