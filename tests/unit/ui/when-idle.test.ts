/** @jest-environment jsdom */
import { whenIdle } from "../../../src/ui/when-idle";

afterEach(() => {
	delete (window as Partial<Window>).requestIdleCallback;
	jest.useRealTimers();
});

describe("whenIdle", () => {
	it("leaves the work to the window's next idle moment, with a deadline", () => {
		const asked: Array<{ callback: IdleRequestCallback; options?: IdleRequestOptions }> = [];
		window.requestIdleCallback = (callback, options) => asked.push({ callback, options });
		const work = jest.fn();
		whenIdle(work, 1500);
		expect(work).not.toHaveBeenCalled();
		expect(asked.map((a) => a.options)).toEqual([{ timeout: 1500 }]);
		asked[0].callback({ didTimeout: false, timeRemaining: () => 10 });
		expect(work).toHaveBeenCalledTimes(1);
	});

	it("where the window has no idle callbacks (iOS), runs it after a short timer", () => {
		jest.useFakeTimers();
		const work = jest.fn();
		whenIdle(work);
		jest.advanceTimersByTime(199);
		expect(work).not.toHaveBeenCalled();
		jest.advanceTimersByTime(1);
		expect(work).toHaveBeenCalledTimes(1);
	});
});
