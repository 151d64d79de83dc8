import { InvalidTransition, isActive, isFinal, nextState, type RunEvent } from "../../../src/runner/state-machine";
import type { RunState } from "../../../src/runner/result";

describe("run state machine (the seed's transition table)", () => {
	it.each<[RunState, RunEvent, RunState]>([
		["idle", "cache_hit", "cached"],
		["idle", "start", "running"],
		["running", "headers", "streaming"],
		["streaming", "chunk", "streaming"],
		["streaming", "complete", "done"],
		["running", "complete", "done"],
		["running", "cancel", "cancelled"],
		["streaming", "cancel", "cancelled"],
		["running", "timeout", "cancelled"],
		["streaming", "timeout", "cancelled"],
		["streaming", "fail", "failed"],
		["running", "fail", "failed"],
		["done", "start", "running"],
		["cached", "start", "running"],
		["cancelled", "cache_hit", "cached"],
		["failed", "start", "running"],
	])("%s --%s--> %s", (from, event, to) => {
		expect(nextState(from, event)).toBe(to);
	});

	it.each<[RunState, RunEvent]>([
		["idle", "headers"],
		["idle", "chunk"],
		["running", "start"],
		["running", "cache_hit"],
		["streaming", "headers"],
		["done", "chunk"],
		["cancelled", "complete"],
		["cached", "cancel"],
	])("refuses %s --%s-->", (from, event) => {
		expect(() => nextState(from, event)).toThrow(InvalidTransition);
	});

	it("names final and active states", () => {
		expect((["done", "cached", "cancelled", "failed"] as RunState[]).every(isFinal)).toBe(true);
		expect((["idle", "running", "streaming"] as RunState[]).some(isFinal)).toBe(false);
		expect((["running", "streaming"] as RunState[]).every(isActive)).toBe(true);
		expect(isActive("idle")).toBe(false);
	});
});
