import { definesVariablesOnly, historyAlias, type NoteBlock } from "../blocks";
import { keepsForReferences, prepareContext, runBlock } from "./block-runners";
import type { ExecutorDeps } from "./executor";
import { failedError } from "./failures";
import { aliasBlocks, referencedAliases, type RunScope } from "./prepare";
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
 * Runs `targets` (blocks of `note`) in order. A block whose references name an alias that
 * has no result yet gets that block run first, once; a reference cycle fails the blocks in it.
 */
export async function runBlocks(note: readonly NoteBlock[], targets: readonly NoteBlock[], ctx: RunContext): Promise<BlockRun[]> {
	const byAlias = aliasBlocks(note);
	const aliases = new Set(byAlias.keys());
	const runs: BlockRun[] = [];
	const done = new Set<NoteBlock>();
	/** Blocks that failed or were cancelled in this run, with the root cause their dependants name. */
	const broken = new Map<NoteBlock, string>();

	const runOne = async (block: NoteBlock, stack: NoteBlock[], dependency: boolean): Promise<BlockResult> => {
		const finish = (result: BlockResult): BlockResult => {
			done.add(block);
			if ((result.state === "failed" || result.state === "cancelled") && !broken.has(block)) {
				broken.set(block, `${block.alias ?? historyAlias(block)}, which ${result.state === "cancelled" ? "was cancelled" : "failed"}`);
			}
			const kept = dependency || keepsForReferences(block, ctx.kindOptions);
			if (block.alias !== null && block.runnable && kept) ctx.results.set(block.alias, result);
			runs.push({ block, result, dependency });
			ctx.onBlockDone?.(block, result);
			return result;
		};
		for (const alias of referencedAliases(block, aliases)) {
			const dep = byAlias.get(alias);
			if (!dep || dep === block || done.has(dep) || ctx.results.get(alias)) continue;
			if (stack.includes(dep)) {
				const cycle = [...stack.slice(stack.indexOf(dep)), block, dep].map((b) => b.alias ?? historyAlias(b)).join(" → ");
				return finish(failedBeforeStart(failedError("dependency_cycle", undefined, cycle)));
			}
			await runOne(dep, [...stack, block], true);
		}
		const blocked = await ctx.runOtherNotesFirst?.(block, stack);
		if (blocked) return finish(blocked);
		// A dependency that failed in this run is reported once, on itself; its dependants are skipped.
		const cause = referencedAliases(block, aliases)
			.map((a) => byAlias.get(a))
			.find((dep): dep is NoteBlock => dep !== undefined && dep !== block && broken.has(dep));
		if (cause) {
			const why = broken.get(cause) as string;
			broken.set(block, why);
			return finish(failedBeforeStart(failedError("dependency_failed", undefined, why)));
		}
		ctx.onBlockStart?.(block, dependency ? "dependency" : "target");
		const signal = ctx.signalFor?.(block) ?? ctx.signal;
		if (signal?.aborted) return finish(failedBeforeStart(failedError("cancelled", undefined)));
		const result = await runBlock(block, {
			prepare: prepareContext(note, block, ctx, aliases),
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
		return finish(result);
	};

	for (const target of targets) {
		if (done.has(target) || definesVariablesOnly(target)) continue;
		await runOne(target, [], false);
	}
	return runs;
}

