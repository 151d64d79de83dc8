import type { PlanNode } from "../../runner/db/driver";
import { costliestNode, ownCost, type PlanPath } from "../../runner/db/plan-rank";
import { t } from "../strings";

const samePath = (a: PlanPath, b: PlanPath | null) => b !== null && a.length === b.length && a.every((x, i) => x === b[i]);
const figure = (n: number) => (Number.isInteger(n) ? n.toLocaleString() : n.toLocaleString(undefined, { maximumFractionDigits: 2 }));

/**
 * An EXPLAIN plan as a tree: each step with its cost and rows where the engine gives them,
 * children nested, the most expensive step (by its own cost; src/runner/db/plan-rank.ts)
 * highlighted and labelled for screen readers.
 */
export function renderPlan(parent: HTMLElement, plan: readonly PlanNode[]): void {
	const box = parent.createDiv({ cls: "rb-db-plan" });
	box.createDiv({ cls: "rb-db-plan-title", text: t("dbPlan") });
	if (plan.length === 0) {
		box.createDiv({ cls: "rb-muted", text: t("dbPlanEmpty") });
		return;
	}
	const hot = costliestNode(plan);
	const list = (nodes: readonly PlanNode[], path: PlanPath, into: HTMLElement) => {
		const ul = into.createEl("ul", { cls: "rb-db-plan-list", attr: { role: path.length === 0 ? "tree" : "group" } });
		nodes.forEach((node, i) => {
			const at = [...path, i];
			const li = ul.createEl("li", { cls: "rb-db-plan-node", attr: { role: "treeitem" } });
			const line = li.createDiv({ cls: "rb-db-plan-line" });
			line.createSpan({ cls: "rb-db-plan-label", text: node.label });
			if (node.cost !== undefined) line.createSpan({ cls: "rb-db-plan-cost", text: t("dbPlanCost", { cost: figure(node.cost) }), attr: { title: `${figure(ownCost(node) ?? node.cost)}` } });
			if (node.rows !== undefined) line.createSpan({ cls: "rb-db-plan-rows", text: t("dbPlanRows", { rows: figure(node.rows) }) });
			if (samePath(at, hot)) {
				li.addClass("rb-db-plan-hot");
				line.createSpan({ cls: "rb-db-plan-hot-label", text: t("dbPlanHot") });
			}
			if (node.detail) li.createDiv({ cls: "rb-db-plan-detail rb-muted", text: node.detail });
			if (node.children.length > 0) list(node.children, at, li);
		});
	};
	list(plan, [], box);
}
