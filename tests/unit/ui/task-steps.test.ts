/** @jest-environment jsdom */
import { oneTaskEach } from "../../../src/ui/task-steps";

/** The next task: what the page runs after the current one. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("oneTaskEach", () => {
	it("runs the steps in order, one per task, none in the caller's", async () => {
		const ran: string[] = [];
		oneTaskEach([() => ran.push("a"), () => ran.push("b"), () => ran.push("c")]);
		expect(ran).toEqual([]);
		await nextTask();
		expect(ran).toEqual(["a"]);
		await nextTask();
		expect(ran).toEqual(["a", "b"]);
		await nextTask();
		expect(ran).toEqual(["a", "b", "c"]);
	});

	it("runs no step left once cancelled, and keeps its own copy of the steps", async () => {
		const ran: string[] = [];
		const steps = [() => ran.push("a"), () => ran.push("b")];
		const cancel = oneTaskEach(steps);
		steps.length = 0;
		await nextTask();
		cancel();
		await nextTask();
		await nextTask();
		expect(ran).toEqual(["a"]);
	});
});
