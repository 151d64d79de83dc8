import { costliestNode, nodeAt, ownCost } from "../../../../src/runner/db/plan-rank";
import type { PlanNode } from "../../../../src/runner/db/driver";

const n = (label: string, extra: Partial<PlanNode> = {}, children: PlanNode[] = []): PlanNode => ({ label, children, ...extra });

describe("the most expensive node of a plan", () => {
	it("ranks by a node's own cost: its total minus its children's (the root's total always is the largest)", () => {
		// Hash Join total 120 = own 20 + Seq Scan 90 + Hash 10 (Hash's own 5 + Index Scan 5).
		const plan = [n("Hash Join", { cost: 120 }, [n("Seq Scan on books", { cost: 90 }), n("Hash", { cost: 10 }, [n("Index Scan on authors", { cost: 5 })])])];
		expect(ownCost(plan[0])).toBe(20);
		expect(costliestNode(plan)).toEqual([0, 0]);
		expect(nodeAt(plan, [0, 0])?.label).toBe("Seq Scan on books");
	});

	it("a root doing the work itself is the costliest", () => {
		expect(costliestNode([n("Sort", { cost: 500 }, [n("Seq Scan", { cost: 40 })])])).toEqual([0]);
	});

	it("an own cost is never negative (a child estimated above its parent)", () => {
		expect(ownCost(n("Limit", { cost: 1 }, [n("Seq Scan", { cost: 100 })]))).toBe(0);
	});

	it("without costs, the node reading the most rows", () => {
		expect(costliestNode([n("query", {}, [n("ALL on a", { rows: 10 }), n("ref on b", { rows: 3000 })])])).toEqual([0, 1]);
	});

	it("SQLite (no costs, no rows): the first full scan, not an index search or covering-index scan", () => {
		const plan = [n("SEARCH a USING INDEX ia (x=?)"), n("SCAN b USING COVERING INDEX ib"), n("SCAN c"), n("SCAN d")];
		expect(costliestNode(plan)).toEqual([2]);
	});

	it("nothing to rank by: no highlight", () => {
		expect(costliestNode([n("SEARCH a USING INTEGER PRIMARY KEY (rowid=?)")])).toBeNull();
		expect(costliestNode([])).toBeNull();
	});

	it("ties go to the first node in reading order", () => {
		expect(costliestNode([n("a", { cost: 5 }), n("b", { cost: 5 })])).toEqual([0]);
	});
});
