import type { NoteBlock } from "../blocks";
import type { Engine } from "../runner/engine";
import { whenIdle } from "./when-idle";

/** The kinds each engine has been asked to prepare: once per kind is enough. */
const prepared = new WeakMap<Engine, Set<string>>();

/**
 * A runnable block is on screen: what its first run needs (Engine.prepareToRun) loads in the next
 * idle moment, so the Run click does not compile it. That took about half of a first run's time
 * from the click to the request leaving (bench/first-run). A session that shows no runnable block
 * loads none of it.
 */
export function prepareRunsWhenIdle(engine: Engine, block: NoteBlock): void {
	if (!engine.isRunnable(block)) return;
	const kinds = prepared.get(engine) ?? new Set<string>();
	prepared.set(engine, kinds);
	if (kinds.has(block.kind)) return;
	kinds.add(block.kind);
	whenIdle(() => engine.prepareToRun(block.kind));
}
