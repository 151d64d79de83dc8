/** @jest-environment jsdom */
import type { PlanNode } from "../../../../src/runner/db/driver";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";
import { renderPlan } from "../../../../src/ui/db/plan-view";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();

const node = (label: string, more: Partial<PlanNode> = {}): PlanNode => ({ label, children: [], ...more });

function render(plan: PlanNode[]): HTMLElement {
	const parent = createDiv();
	renderPlan(parent, plan);
	return parent;
}

const labels = (el: HTMLElement, selector: string) => [...el.querySelectorAll(selector)].map((x) => x.textContent);

describe("renderPlan", () => {
	it("says so when the engine gave no plan, under the title", () => {
		const el = render([]);
		expect(el.querySelector(".rb-db-plan-title")?.textContent).toBe("Query plan");
		expect(el.querySelector(".rb-muted")?.textContent).toBe("The engine returned no plan.");
		expect(el.querySelector("[role=tree]")).toBeNull();
	});

	it("nests each step's children under it, as a tree for screen readers", () => {
		const el = render([node("Hash Join", { children: [node("Seq Scan on a"), node("Hash", { children: [node("Seq Scan on b")] })] })]);
		const root = el.querySelector("[role=tree]") as HTMLElement;
		expect([...root.children].map((li) => li.querySelector(".rb-db-plan-label")?.textContent)).toEqual(["Hash Join"]);
		const join = root.querySelector(":scope > li") as HTMLElement;
		expect(labels(join.querySelector(":scope > [role=group]") as HTMLElement, ":scope > li > .rb-db-plan-line > .rb-db-plan-label")).toEqual(["Seq Scan on a", "Hash"]);
		expect(el.querySelectorAll("[role=treeitem]")).toHaveLength(4);
		expect(el.querySelectorAll("[role=group]")).toHaveLength(2);
	});

	it("shows cost and rows where the engine gives them, the step's own cost as the cost's title", () => {
		const el = render([node("Sort", { cost: 120, rows: 40, children: [node("Seq Scan on t", { cost: 100, rows: 40 })] })]);
		expect(labels(el, ".rb-db-plan-cost")).toEqual(["cost 120", "cost 100"]);
		expect(labels(el, ".rb-db-plan-rows")).toEqual(["rows 40", "rows 40"]);
		expect([...el.querySelectorAll(".rb-db-plan-cost")].map((c) => c.getAttribute("title"))).toEqual(["20", "100"]);
	});

	it("rounds a fractional cost to two decimals", () => {
		const el = render([node("Index Scan", { cost: 1.23456 })]);
		expect(el.querySelector(".rb-db-plan-cost")?.textContent).toBe(`cost ${(1.23).toLocaleString()}`);
	});

	it("highlights and labels the step with the highest own cost, not the root that includes it", () => {
		const el = render([node("Sort", { cost: 120, children: [node("Seq Scan on t", { cost: 100 })] })]);
		const hot = [...el.querySelectorAll(".rb-db-plan-hot")];
		expect(hot.map((li) => li.querySelector(".rb-db-plan-label")?.textContent)).toEqual(["Seq Scan on t"]);
		expect(hot[0].querySelector(".rb-db-plan-hot-label")?.textContent).toBe("Most expensive step");
		expect(el.querySelectorAll(".rb-db-plan-hot-label")).toHaveLength(1);
	});

	it("highlights SQLite's full table scan (no costs) and shows a step's detail under it", () => {
		const el = render([node("SEARCH a USING INDEX ia (x=?)"), node("SCAN b", { detail: "loops 3" })]);
		expect(labels(el, ".rb-db-plan-hot > .rb-db-plan-line > .rb-db-plan-label")).toEqual(["SCAN b"]);
		expect(labels(el, ".rb-db-plan-detail")).toEqual(["loops 3"]);
	});

	it("highlights nothing when nothing can be ranked", () => {
		const el = render([node("SEARCH a USING INDEX ia (x=?)")]);
		expect(el.querySelector(".rb-db-plan-hot")).toBeNull();
		expect(el.querySelector(".rb-db-plan-cost, .rb-db-plan-rows")).toBeNull();
	});
});
