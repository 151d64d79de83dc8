import { groupChanges, type ChangeGroup, type FileChange } from "../../vcs";

/**
 * The change list as the panel draws it: one flat list of fixed-height rows (a head per group, then
 * its files), so only the rows in view need DOM (issue 17: a 10,000-file vault stays responsive).
 */
export type ChangeRow = { kind: "head"; group: ChangeGroup; files: readonly FileChange[] } | { kind: "file"; group: ChangeGroup; file: FileChange };

/** Groups in the order the panel shows them: what needs the user first. */
export const GROUP_ORDER: readonly ChangeGroup[] = ["conflicted", "staged", "unstaged", "untracked"];

/** A group's place in the list: its head row is `start`, its files follow. */
export interface ChangeSection {
	group: ChangeGroup;
	files: readonly FileChange[];
	start: number;
}

/** The change list: its sections and its row count (the rows themselves are made only for the ones drawn). */
export interface ChangeList {
	sections: ChangeSection[];
	count: number;
}

export function changeList(files: readonly FileChange[]): ChangeList {
	const groups = groupChanges(files);
	const sections: ChangeSection[] = [];
	let count = 0;
	for (const group of GROUP_ORDER) {
		const list = groups[group];
		if (list.length === 0) continue;
		sections.push({ group, files: list, start: count });
		count += 1 + list.length;
	}
	return { sections, count };
}

/** Row `i` of the list (0 ≤ i < count). */
export function rowAt(list: ChangeList, i: number): ChangeRow {
	let k = list.sections.length - 1;
	while (k > 0 && list.sections[k].start > i) k--;
	const s = list.sections[k];
	return i === s.start ? { kind: "head", group: s.group, files: s.files } : { kind: "file", group: s.group, file: s.files[i - s.start - 1] };
}

/** Every row, in order (what the panel would draw with an endless viewport). */
export function changeRows(files: readonly FileChange[]): ChangeRow[] {
	const list = changeList(files);
	return Array.from({ length: list.count }, (_, i) => rowAt(list, i));
}
