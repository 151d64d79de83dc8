import { parseNote, type NoteBlock } from "../../../src/blocks";
import { planRun, RunGraph, type PlannedBlock, type Step } from "../../../src/runner/run-graph";

const fence = (info: string, ...lines: string[]) => ["```http" + (info ? ` ${info}` : ""), ...lines, "```"].join("\n");
const note = (...fences: string[]) => parseNote(fences.join("\n"));
const name = (b: NoteBlock) => b.alias ?? "?";
const noResults = () => false;
/** A plan as names: [block, needs, after, fails]. */
const shape = (plan: readonly PlannedBlock[]) => plan.map((p) => [name(p.block), p.needs.map(name), p.after.map(name), p.fails?.message ?? null]);

/** Every step `next` gives now, as "run x" / "fail x: why". */
function drain(graph: RunGraph): string[] {
	const out: string[] = [];
	for (let s: Step | null = graph.next(); s; s = graph.next()) {
		out.push(s.verdict === "run" ? `run ${name(s.planned.block)}` : `fail ${name(s.planned.block)}: ${s.error.message}`);
		if (s.verdict === "fail") graph.finish(s.planned.block, { state: "failed", error: s.error });
	}
	return out;
}
const blockNamed = (blocks: readonly NoteBlock[], alias: string) => blocks.find((b) => b.alias === alias) as NoteBlock;

describe("planRun", () => {
	const api = note(
		fence("alias=login", "POST http://x/login"),
		fence("alias=me", "GET http://x/me?t={{login.response.body.$.token}}"),
		fence("alias=a", "GET http://x/a"),
		fence("alias=b", "GET http://x/b"),
		fence("alias=save", "PUT http://x/save"),
		fence("alias=c", "GET http://x/c"),
	);

	it("connects a block to the blocks it reads, and keeps a block that changes state in its place", () => {
		expect(shape(planRun(api, api, noResults))).toEqual([
			["login", [], [], null],
			["me", ["login"], ["login"], null],
			["a", [], ["login"], null],
			["b", [], ["login"], null],
			["save", [], ["login", "me", "a", "b"], null],
			["c", [], ["save"], null],
		]);
	});

	it("runs a block a target reads first when it has no result, marked as a dependency; one with a result is read, not run", () => {
		const [, me] = api;
		expect(planRun(api, [me], noResults).map((p) => [name(p.block), p.dependency])).toEqual([
			["login", true],
			["me", false],
		]);
		expect(shape(planRun(api, [me], (alias) => alias === "login"))).toEqual([["me", [], [], null]]);
	});

	it("waits for a block the run also runs even when an older result of it is kept (a reference below the block)", () => {
		const below = note(fence("alias=use", "GET http://x/?t={{make.response.status}}"), fence("alias=make", "GET http://x/make"));
		expect(shape(planRun(below, below, () => true))).toEqual([
			["make", [], [], null],
			["use", ["make"], [], null],
		]);
	});

	it("orders by `# @after`, as by a reference, and fails a block whose `# @after` names no block", () => {
		const after = note(fence("alias=login", "GET http://x/login"), fence("alias=me", "# @after login", "GET http://x/me"), fence("alias=odd", "# @after nobody", "GET http://x/odd"));
		expect(shape(planRun(after, after, noResults))).toEqual([
			["login", [], [], null],
			["me", ["login"], [], null],
			["odd", [], [], '# @after names "nobody", which is no block of this note'],
		]);
	});

	it("fails the block that closes a reference cycle with the chain, and keeps no edge back into the cycle", () => {
		const cyclic = note(fence("alias=a", "GET http://x/a?b={{b.response.status}}"), fence("alias=b", "GET http://x/b?a={{a.response.status}}"));
		expect(shape(planRun(cyclic, [cyclic[0]], noResults))).toEqual([
			["b", [], [], "Reference cycle: a → b → a"],
			["a", ["b"], [], null],
		]);
	});

	it("ignores a block's reference to itself (it reads its own previous run)", () => {
		const self = note(fence("alias=page", "GET http://x/?next={{page.response.body.$.next}}"));
		expect(shape(planRun(self, self, noResults))).toEqual([["page", [], [], null]]);
	});
});

describe("RunGraph", () => {
	const independent = note(fence("alias=a", "GET http://x/a"), fence("alias=b", "GET http://x/b"), fence("alias=c", "GET http://x/c"), fence("alias=d", "GET http://x/d"), fence("alias=e", "GET http://x/e"));

	it("starts every block that nothing connects, up to the limit, and one more as each ends", () => {
		const graph = new RunGraph(planRun(independent, independent, noResults), 4);
		expect(drain(graph)).toEqual(["run a", "run b", "run c", "run d"]);
		expect(graph.running).toBe(4);
		graph.finish(blockNamed(independent, "c"), { state: "done" });
		expect(drain(graph)).toEqual(["run e"]);
		for (const alias of ["a", "b", "d", "e"]) graph.finish(blockNamed(independent, alias), { state: "done" });
		expect(graph.done).toBe(true);
	});

	it("with a limit of 1 runs the blocks one after another in the serial order", () => {
		const graph = new RunGraph(planRun(independent, independent, noResults), 1);
		const order: string[] = [];
		for (let s = graph.next(); s; s = graph.next()) {
			order.push(name(s.planned.block));
			expect(graph.next()).toBeNull();
			graph.finish(s.planned.block, { state: "done" });
		}
		expect(order).toEqual(["a", "b", "c", "d", "e"]);
	});

	it("skips only the dependants of a block that fails, naming the root cause; the others run", () => {
		const blocks = note(
			fence("alias=login", "GET http://x/login"),
			fence("alias=me", "GET http://x/me?t={{login.response.status}}"),
			fence("alias=orders", "GET http://x/orders?me={{me.response.status}}"),
			fence("alias=free", "GET http://x/free"),
		);
		const graph = new RunGraph(planRun(blocks, blocks, noResults), 4);
		expect(drain(graph)).toEqual(["run login", "run free"]);
		graph.finish(blockNamed(blocks, "login"), { state: "cancelled" });
		expect(drain(graph)).toEqual(["fail me: skipped: depends on login, which was cancelled", "fail orders: skipped: depends on login, which was cancelled"]);
		expect(graph.done).toBe(false);
		graph.finish(blockNamed(blocks, "free"), { state: "done" });
		expect(graph.done).toBe(true);
	});

	it("lets the blocks below a failed state change run: the order around it is not a dependency", () => {
		const blocks = note(fence("alias=reset", "POST http://x/reset"), fence("alias=a", "GET http://x/a"), fence("alias=b", "GET http://x/b"));
		const graph = new RunGraph(planRun(blocks, blocks, noResults), 4);
		expect(drain(graph)).toEqual(["run reset"]);
		graph.finish(blockNamed(blocks, "reset"), { state: "failed" });
		expect(drain(graph)).toEqual(["run a", "run b"]);
	});

	it("fails a block that cannot start without taking a slot", () => {
		const blocks = note(fence("alias=a", "GET http://x/a"), fence("alias=odd", "# @after nobody", "GET http://x/odd"));
		expect(drain(new RunGraph(planRun(blocks, blocks, noResults), 1))).toEqual(["run a", 'fail odd: # @after names "nobody", which is no block of this note']);
	});

	it.each([1, 4])("costs about one block per step, not the plan: 2,000 blocks with writes and a failure, %i at once, read the plan a few times per block", (limit) => {
		const N = 2000;
		// Every fifth block writes (the others keep their place around it); b10 fails; every
		// hundredth block from b50 reads it, and is skipped without a slot.
		const blocks = note(...Array.from({ length: N }, (_, i) => fence(`alias=b${i}`, i % 100 === 50 ? "GET http://x/?s={{b10.response.status}}" : `${i % 5 === 0 ? "POST" : "GET"} http://x/${i}`)));
		let reads = 0;
		const plan = planRun(blocks, blocks, noResults);
		const counted = new Proxy(plan, {
			get(target, key, receiver) {
				if (typeof key === "string" && /^\d+$/.test(key)) reads++;
				return Reflect.get(target, key, receiver) as unknown;
			},
		});
		const graph = new RunGraph(counted, limit);
		const running: NoteBlock[] = [];
		const ran: string[] = [];
		const skipped: string[] = [];
		// As runBlocks pumps: every step it can take now, then the oldest running block ends.
		while (!graph.done) {
			for (let s = graph.next(); s; s = graph.next()) {
				if (s.verdict === "fail") {
					skipped.push(name(s.planned.block));
					graph.finish(s.planned.block, { state: "failed", error: s.error });
				} else running.push(s.planned.block);
			}
			const ends = running.shift();
			if (!ends) throw new Error("stalled");
			ran.push(name(ends));
			graph.finish(ends, { state: name(ends) === "b10" ? "failed" : "done" });
		}
		expect(skipped).toEqual(Array.from({ length: 20 }, (_, k) => `b${k * 100 + 50}`));
		expect(ran).toHaveLength(N - 20);
		// A scan of the rest of the plan at every step would read it some N²/2 = 2,000,000 times.
		expect(reads).toBeLessThan(10 * N);
	});

	it("refuses a limit that is not a positive integer, and a finish of a block that is not running", () => {
		const plan = planRun(independent, independent, noResults);
		expect(() => new RunGraph(plan, 0)).toThrow(RangeError);
		expect(() => new RunGraph(plan, 1).finish(independent[0], { state: "done" })).toThrow(/not running/);
	});
});
