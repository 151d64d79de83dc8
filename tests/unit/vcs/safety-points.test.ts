import { idsToPrune, nextSafetyId, parseStateMessage, safetyId, stateMessage, type RepoState } from "../../../src/vcs/safety-points";

const DAY = 24 * 60 * 60 * 1000;
const state: RepoState = { headRef: "refs/heads/main", headOid: "a".repeat(40), indexTree: null, worktreeTree: "b".repeat(40) };

describe("safety point ids", () => {
	it("sort by time, then by a sequence within the same millisecond", () => {
		expect(safetyId(1764255320000, 3)).toBe("1764255320000-0003");
		expect(nextSafetyId(5, [safetyId(5, 0), safetyId(5, 1), safetyId(4, 7)])).toBe("0000000000005-0002");
		expect(nextSafetyId(6, [safetyId(5, 9)])).toBe("0000000000006-0000");
	});
});

describe("state messages", () => {
	it("read back what they hold, a conflicted index (no tree) included", () => {
		expect(parseStateMessage(stateMessage("Safety point before commit", "commit", 42, state))).toEqual({ action: "commit", time: 42, state });
		const detached = { ...state, headRef: null, indexTree: "c".repeat(40) };
		expect(parseStateMessage(stateMessage("x", "merge", 1, detached))?.state).toEqual(detached);
	});

	it("are not ours without an action we know and a work-tree object", () => {
		expect(parseStateMessage("WIP on main")).toBeNull();
		expect(parseStateMessage(stateMessage("x", "commit", 1, state).replace("rb-action: commit", "rb-action: explode"))).toBeNull();
		expect(parseStateMessage(stateMessage("x", "commit", 1, { ...state, worktreeTree: "nope" }))).toBeNull();
	});
});

describe("pruning", () => {
	const points = (n: number, at: (i: number) => number) => Array.from({ length: n }, (_, i) => ({ id: safetyId(at(i), 0), time: at(i) }));

	it("drops points older than 30 days", () => {
		const now = 100 * DAY;
		const ps = [{ id: safetyId(now - 31 * DAY, 0), time: now - 31 * DAY }, { id: safetyId(now - 29 * DAY, 0), time: now - 29 * DAY }];
		expect(idsToPrune(ps, now)).toEqual([ps[0].id]);
	});

	it("keeps the newest 50", () => {
		const ps = points(53, (i) => 1000 + i);
		expect(idsToPrune(ps, 2000).sort()).toEqual(ps.slice(0, 3).map((p) => p.id));
	});
});
