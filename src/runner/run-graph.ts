/**
 * The dependency graph of a run and the blocks ready to start (docs/blocks.md, "Running blocks in
 * parallel"). Pure: `planRun` reads the note, `RunGraph` is the state of one run; `runBlocks`
 * (run-note.ts) drives it and does the I/O.
 */
import { afterAliases, changesState, historyAlias, type NoteBlock } from "../blocks";
import { failedError } from "./failures";
import { aliasBlocks, referencedAliases } from "./prepare";
import type { BlockResult, RunError } from "./result";

/** One block of a run, as planned before anything starts. */
export interface PlannedBlock {
	block: NoteBlock;
	/** True when it runs because a block of the run needs it (it was reached as a dependency first). */
	dependency: boolean;
	/** Blocks of the run it reads (`{{alias.…}}`) or names (`# @after`): when one fails or is cancelled, this one is skipped. */
	needs: readonly NoteBlock[];
	/** Blocks of the run it waits for only to keep the note's order around a block that changes state; their failure skips nothing. */
	after: readonly NoteBlock[];
	/** It cannot start at all: it closes a reference cycle, or `# @after` names no block of the note. */
	fails?: RunError;
}

const nameOf = (block: NoteBlock) => block.alias ?? historyAlias(block);

/**
 * The blocks `targets` make run, in the order a serial run takes them: each target after the
 * blocks it needs that run too — a referenced block that is a target, or that has no result yet
 * (`hasResult`) and so is run first, once. A block that closes a reference cycle fails, naming the
 * chain, and keeps no edge back into it, so the graph has no cycle. Then a block that changes state
 * (`changesState`) keeps its place in that order: it waits for every block before it, and every
 * block after it waits for it.
 */
export function planRun(note: readonly NoteBlock[], targets: readonly NoteBlock[], hasResult: (alias: string) => boolean): PlannedBlock[] {
	const byAlias = aliasBlocks(note);
	const aliases = new Set(byAlias.keys());
	const isTarget = new Set(targets);
	const planned = new Set<NoteBlock>();
	const plan: PlannedBlock[] = [];

	const visit = (block: NoteBlock, stack: readonly NoteBlock[], dependency: boolean): void => {
		const needs: NoteBlock[] = [];
		const after = afterAliases(block);
		const unknown = after.find((a) => !aliases.has(a));
		let fails: RunError | undefined = unknown === undefined ? undefined : afterNamesNoBlock(unknown);
		for (const alias of new Set([...referencedAliases(block, aliases), ...after.filter((a) => aliases.has(a))])) {
			if (fails) break;
			const dep = byAlias.get(alias) as NoteBlock;
			if (dep === block) continue;
			if (planned.has(dep)) {
				needs.push(dep);
				continue;
			}
			if (!isTarget.has(dep) && hasResult(alias)) continue;
			if (stack.includes(dep)) {
				const chain = [...stack.slice(stack.indexOf(dep)), block, dep].map(nameOf).join(" → ");
				fails = failedError("dependency_cycle", undefined, chain);
				break;
			}
			visit(dep, [...stack, block], true);
			needs.push(dep);
		}
		planned.add(block);
		plan.push({ block, dependency, needs, after: [], ...(fails ? { fails } : {}) });
	};
	for (const target of targets) if (!planned.has(target)) visit(target, [], false);
	return keepWritesInPlace(plan);
}

/** `# @after x` where the note has no block x: the block is invalid as written. */
function afterNamesNoBlock(alias: string): RunError {
	return { code: "invalid_block", message: `# @after names "${alias}", which is no block of this note` };
}

/** Adds the order-only edges around the blocks that change state (see `planRun`). */
function keepWritesInPlace(plan: PlannedBlock[]): PlannedBlock[] {
	let lastWrite: NoteBlock | null = null;
	let sinceWrite: NoteBlock[] = [];
	return plan.map((p) => {
		const before = lastWrite ? [lastWrite] : [];
		if (!changesState(p.block)) {
			sinceWrite.push(p.block);
			return { ...p, after: before };
		}
		const after = [...before, ...sinceWrite];
		lastWrite = p.block;
		sinceWrite = [];
		return { ...p, after };
	});
}

/** What to do with the next block of the run. */
export type Step = { verdict: "run"; planned: PlannedBlock } | { verdict: "fail"; planned: PlannedBlock; error: RunError };

type NodeState = "waiting" | "running" | "finished";

/**
 * The state of one run over its plan: which blocks wait, run or finished, and the root cause each
 * broken block hands its dependants. At most `limit` blocks run at once; a block fails without
 * running (and without a slot) when it cannot start or a block it needs broke.
 *
 * A step costs about one block, not the plan (a note of thousands of blocks runs in a suite): each
 * block counts the blocks it still waits for, and one that waits for none joins the ready list, in
 * plan order. While every slot is taken only the suspects (blocks that may fail without one) are
 * looked at.
 */
export class RunGraph {
	private readonly state = new Map<NoteBlock, NodeState>();
	/** Blocks that failed or were cancelled in this run, with the root cause their dependants name. */
	private readonly broken = new Map<NoteBlock, string>();
	/** Blocks holding a slot. */
	private readonly slots = new Set<NoteBlock>();
	private finished = 0;
	/** Each planned block's place in the plan, and how many blocks it still waits for. */
	private readonly index = new Map<PlannedBlock, number>();
	private readonly waitsFor = new Map<PlannedBlock, number>();
	/** The planned blocks that wait for a block (it is in their `needs` or `after`). */
	private readonly waiters = new Map<NoteBlock, PlannedBlock[]>();
	/** Waiting blocks that wait for nothing more, in plan order. */
	private readonly ready: PlannedBlock[] = [];
	/** Waiting blocks that may fail without a slot: those that cannot start, and the dependants of a broken block. */
	private readonly suspects = new Set<PlannedBlock>();

	constructor(
		private readonly plan: readonly PlannedBlock[],
		private readonly limit: number,
	) {
		if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`parallel must be a positive integer (got ${limit})`);
		plan.forEach((p, i) => {
			this.state.set(p.block, "waiting");
			this.index.set(p, i);
			if (p.fails) this.suspects.add(p);
			const waitsFor = new Set([...p.needs, ...p.after]);
			this.waitsFor.set(p, waitsFor.size);
			for (const b of waitsFor) {
				const list = this.waiters.get(b);
				if (list) list.push(p);
				else this.waiters.set(b, [p]);
			}
			if (waitsFor.size === 0) this.ready.push(p);
		});
	}

	/** The next block to start or to fail, in plan order, or null when none can now (wait for a `finish`). */
	next(): Step | null {
		if (this.slots.size >= this.limit) return this.nextToFail();
		const p = this.ready.shift();
		if (!p) return null;
		const fails = this.failing(p);
		if (fails) return fails;
		this.state.set(p.block, "running");
		this.slots.add(p.block);
		return { verdict: "run", planned: p };
	}

	/** Records how a block started by `next` ended. */
	finish(block: NoteBlock, result: Pick<BlockResult, "state" | "error">): void {
		if (this.state.get(block) !== "running") throw new Error(`finish of ${nameOf(block)}, which is not running`);
		this.state.set(block, "finished");
		this.finished++;
		this.slots.delete(block);
		if ((result.state === "failed" || result.state === "cancelled") && !this.broken.has(block)) {
			this.breaks(block, `${nameOf(block)}, which ${result.state === "cancelled" ? "was cancelled" : "failed"}`);
		}
		for (const w of this.waiters.get(block) ?? []) {
			const left = (this.waitsFor.get(w) as number) - 1;
			this.waitsFor.set(w, left);
			if (left === 0) this.becomesReady(w);
		}
	}

	/** True when every block of the plan has finished. */
	get done(): boolean {
		return this.finished === this.plan.length;
	}

	/** How many blocks run now. */
	get running(): number {
		return this.slots.size;
	}

	/** Into the ready list at its place in plan order (it mostly goes last, or the list is short). */
	private becomesReady(p: PlannedBlock): void {
		const at = this.index.get(p) as number;
		let i = this.ready.length;
		while (i > 0 && (this.index.get(this.ready[i - 1]) as number) > at) i--;
		this.ready.splice(i, 0, p);
	}

	/** With every slot taken: the first ready suspect in plan order that fails, as a scan of the ready list would find it. */
	private nextToFail(): Step | null {
		let first: PlannedBlock | null = null;
		for (const p of this.suspects) {
			if (this.state.get(p.block) !== "waiting") this.suspects.delete(p);
			else if (this.waitsFor.get(p) === 0 && (first === null || (this.index.get(p) as number) < (this.index.get(first) as number))) first = p;
		}
		const fails = first && this.failing(first);
		if (fails) this.ready.splice(this.ready.indexOf(fails.planned), 1);
		return fails;
	}

	/** The fail step of a ready block that cannot start or needs a broken block (marked running), or null. */
	private failing(p: PlannedBlock): Step | null {
		const error = p.fails ?? this.brokenNeed(p);
		if (!error) return null;
		this.state.set(p.block, "running");
		this.suspects.delete(p);
		return { verdict: "fail", planned: p, error };
	}

	/** A dependency that broke in this run is reported once, on itself; its dependants are skipped with the root cause. */
	private brokenNeed(p: PlannedBlock): RunError | undefined {
		const cause = p.needs.find((b) => this.broken.has(b));
		if (!cause) return undefined;
		const why = this.broken.get(cause) as string;
		this.breaks(p.block, why);
		return failedError("dependency_failed", undefined, why);
	}

	private breaks(block: NoteBlock, why: string): void {
		this.broken.set(block, why);
		for (const w of this.waiters.get(block) ?? []) if (this.state.get(w.block) === "waiting" && w.needs.includes(block)) this.suspects.add(w);
	}
}
