/**
 * Which node of a query plan costs the most, for the plan tree's highlight. Engines report a
 * node's cost including its children (PostgreSQL's Total Cost, MySQL's prefix/query cost), so
 * the root always "costs" most: a node is ranked by its own share, its cost minus its
 * children's. Without costs, the node reading the most rows; without either (SQLite's EXPLAIN
 * QUERY PLAN), the first full table scan (`SCAN t` not through an index).
 */
import type { PlanNode } from "./driver";

/** A node's place in the tree: child indices from the roots down. */
export type PlanPath = number[];

/** The node's own cost: its cost minus what its children report (never below zero). */
export function ownCost(node: PlanNode): number | undefined {
	if (node.cost === undefined) return undefined;
	const below = node.children.reduce((n, c) => n + (c.cost ?? 0), 0);
	return Math.max(0, node.cost - below);
}

function walk(nodes: readonly PlanNode[], path: PlanPath, visit: (node: PlanNode, path: PlanPath) => void): void {
	nodes.forEach((node, i) => {
		const at = [...path, i];
		visit(node, at);
		walk(node.children, at, visit);
	});
}

/** SQLite: `SCAN t` (a full scan) but not `SCAN t USING [COVERING] INDEX …`. */
const isFullScan = (label: string) => /^SCAN\b/i.test(label) && !/\bUSING\b.*\bINDEX\b/i.test(label);

/** The path of the most expensive node, or null when the plan gives nothing to rank by. Ties go to the first in reading order. */
export function costliestNode(plan: readonly PlanNode[]): PlanPath | null {
	let best: { path: PlanPath; score: number } | null = null;
	const consider = (score: number | undefined, path: PlanPath) => {
		if (score !== undefined && (best === null || score > best.score)) best = { path, score };
	};
	walk(plan, [], (node, path) => consider(ownCost(node), path));
	if (best === null) walk(plan, [], (node, path) => consider(node.rows, path));
	if (best === null) walk(plan, [], (node, path) => consider(isFullScan(node.label) ? 1 : undefined, path));
	return (best as { path: PlanPath } | null)?.path ?? null;
}

/** The node at a path. */
export function nodeAt(plan: readonly PlanNode[], path: PlanPath): PlanNode | undefined {
	let nodes = plan;
	let node: PlanNode | undefined;
	for (const i of path) {
		node = nodes[i];
		if (!node) return undefined;
		nodes = node.children;
	}
	return node;
}
