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

	it("refuses a limit that is not a positive integer, and a finish of a block that is not running", () => {
		const plan = planRun(independent, independent, noResults);
		expect(() => new RunGraph(plan, 0)).toThrow(RangeError);
		expect(() => new RunGraph(plan, 1).finish(independent[0], { state: "done" })).toThrow(/not running/);
	});
});
