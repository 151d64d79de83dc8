/** @jest-environment jsdom */
import { renderNoCustomHeaders } from "../../../../src/ui/stream/no-custom-headers";
import { ManualFrames } from "../../../support/stream-dom";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

describe("renderNoCustomHeaders", () => {
	it("names the headers that would not be sent and runs without them only on the button", () => {
		new ManualFrames();
		let runs = 0;
		const el = renderNoCustomHeaders(document.body, { headers: ["Authorization", "X-Trace"], runWithoutHeaders: () => runs++ });
		expect(el.textContent).toContain("Authorization, X-Trace would not be sent");
		expect(runs).toBe(0);
		(el.querySelector("button") as HTMLButtonElement).click();
		expect(runs).toBe(1);
	});
});
