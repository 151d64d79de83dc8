/** @jest-environment jsdom */
import { setLanguage } from "../../../../src/ui/strings";
import { renderStreamTiming } from "../../../../src/ui/stream/stream-timing-view";
import type { StreamTiming } from "../../../../src/ui/stream/stream-model";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());
afterEach(() => setLanguage("en"));

/** The Timing tab's rows as [label, value]. */
function rows(timing: StreamTiming, parent = document.body.createDiv()): Array<[string, string]> {
	renderStreamTiming(parent, timing);
	return [...parent.querySelectorAll(".rb-timing-row")].map((r) => [r.querySelector(".rb-timing-label")?.textContent ?? "", r.querySelector(".rb-timing-value")?.textContent ?? ""]);
}

describe("renderStreamTiming", () => {
	it("shows connect, handshake and first message in that order, then the count", () => {
		expect(rows({ firstMessageMs: 1500, connectMs: 3, handshakeMs: 12.4, count: 7 })).toEqual([
			["connect", "3 ms"],
			["handshake", "12 ms"],
			["first message", "1.50 s"],
			["messages", "7"],
		]);
	});

	it("shows only what happened: a stream still connecting has a count alone", () => {
		expect(rows({ count: 0 })).toEqual([["messages", "0"]]);
		expect(rows({ handshakeMs: 0, count: 0 })).toEqual([
			["handshake", "0 ms"],
			["messages", "0"],
		]);
	});

	it("labels the rows in the user's language", () => {
		setLanguage("es");
		expect(rows({ connectMs: 1, count: 2 }).map(([label]) => label)).toEqual(["conexión", "mensajes"]);
	});

	it("replaces what it drew before", () => {
		const parent = document.body.createDiv();
		rows({ connectMs: 1, count: 1 }, parent);
		expect(rows({ count: 2 }, parent)).toEqual([["messages", "2"]]);
	});
});
