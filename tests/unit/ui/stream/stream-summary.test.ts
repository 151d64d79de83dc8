/** @jest-environment jsdom */
import { setLanguage } from "../../../../src/ui/strings";
import { closeText, renderStreamSummary } from "../../../../src/ui/stream/stream-summary";
import type { StreamClose, StreamSnapshot } from "../../../../src/ui/stream/stream-model";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());
afterEach(() => setLanguage("en"));

const snapshot = (over: Partial<StreamSnapshot>): StreamSnapshot => ({ protocol: "websocket", state: "open", handshake: null, messages: [], close: null, timing: { count: 0 }, ...over });

function summary(s: StreamSnapshot): HTMLElement {
	const parent = document.body.createDiv();
	renderStreamSummary(parent, s);
	return parent;
}

describe("closeText", () => {
	it.each<[StreamClose, string]>([
		[{ why: "server_closed", code: 1000, reason: "bye" }, "Closed by the server · code 1000 · bye"],
		[{ why: "cancelled", code: 1000, reason: "" }, "Stopped · code 1000"],
		[{ why: "timeout", code: null, reason: "" }, "No message within the timeout"],
		[{ why: "failed", code: null, reason: "ECONNRESET" }, "Failed · ECONNRESET"],
		[{ why: "steps_done", code: 1000, reason: "" }, "The last wait-for-server was answered · code 1000"],
		[{ why: "max_messages", code: null, reason: "" }, "max_messages reached"],
		[{ why: "duration", code: null, reason: "" }, "duration reached"],
		[{ why: "body_too_large", code: null, reason: "" }, "[body_too_large]: 100 MB of messages received"],
	])("%j reads %j", (close, text) => {
		expect(closeText(close)).toBe(text);
	});

	it("speaks the user's language", () => {
		setLanguage("es");
		expect(closeText({ why: "server_closed", code: 1001, reason: "" })).toBe("Cerrado por el servidor · código 1001");
	});
});

describe("renderStreamSummary", () => {
	it.each([
		["connecting", "Connecting…"],
		["open", "Open"],
		["closed", "Closed"],
	] as const)("shows a %s stream's state as %j, tagged for styling", (state, text) => {
		const badge = summary(snapshot({ state })).querySelector<HTMLElement>(".rb-stream-state");
		expect(badge?.textContent).toBe(text);
		expect(badge?.dataset.state).toBe(state);
		expect(badge?.classList.contains(`rb-stream-state-${state}`)).toBe(true);
	});

	it.each([
		[0, `${(0).toLocaleString()} messages`],
		[1, "1 message"],
		[12345, `${(12345).toLocaleString()} messages`],
	])("counts %d messages as %j", (count, text) => {
		expect(summary(snapshot({ timing: { count } })).querySelector(".rb-stream-count")?.textContent).toBe(text);
	});

	it("shows how the stream ended once it has, and nothing before", () => {
		expect(summary(snapshot({})).querySelector(".rb-stream-close")).toBeNull();
		const closed = summary(snapshot({ state: "closed", close: { why: "server_closed", code: 1000, reason: "" } })).querySelector(".rb-stream-close");
		expect(closed?.textContent).toBe("Closed by the server · code 1000");
		expect(closed?.classList.contains("rb-error-message")).toBe(false);
	});

	it.each(["failed", "body_too_large"] as const)("marks an end by %s as an error", (why) => {
		const closed = summary(snapshot({ state: "closed", close: { why, code: null, reason: "" } })).querySelector(".rb-stream-close");
		expect(closed?.classList.contains("rb-error-message")).toBe(true);
	});

	it("replaces what it drew before", () => {
		const parent = summary(snapshot({ state: "connecting" }));
		renderStreamSummary(parent, snapshot({ state: "open" }));
		expect(parent.querySelectorAll(".rb-stream-state")).toHaveLength(1);
		expect(parent.querySelector(".rb-stream-state")?.textContent).toBe("Open");
	});
});
