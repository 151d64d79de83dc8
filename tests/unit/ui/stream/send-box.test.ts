/** @jest-environment jsdom */
import { isSendKey, SendBox } from "../../../../src/ui/stream/send-box";
import { ManualFrames } from "../../../support/stream-dom";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

function mount(sent: string[]): { box: SendBox; input: HTMLTextAreaElement; press: (init: KeyboardEventInit) => KeyboardEvent } {
	new ManualFrames();
	document.body.empty();
	const box = new SendBox(document.body, (text) => sent.push(text));
	box.load();
	const input = box.el.querySelector("textarea") as HTMLTextAreaElement;
	const press = (init: KeyboardEventInit) => {
		const e = new KeyboardEvent("keydown", { cancelable: true, ...init });
		input.dispatchEvent(e);
		return e;
	};
	return { box, input, press };
}

describe("isSendKey", () => {
	it.each([
		[{ key: "Enter", shiftKey: false, isComposing: false }, true],
		[{ key: "Enter", shiftKey: true, isComposing: false }, false],
		[{ key: "Enter", shiftKey: false, isComposing: true }, false],
		[{ key: "a", shiftKey: false, isComposing: false }, false],
	])("%j sends: %s", (e, expected) => expect(isSendKey(e)).toBe(expected));
});

describe("SendBox", () => {
	it("sends the text on Enter and empties the box", () => {
		const sent: string[] = [];
		const { box, input, press } = mount(sent);
		box.setEnabled(true);
		input.value = '{"op":"ping"}';
		expect(press({ key: "Enter" }).defaultPrevented).toBe(true);
		expect(sent).toEqual(['{"op":"ping"}']);
		expect(input.value).toBe("");
	});

	it("leaves Shift+Enter to the textarea (a new line) and sends nothing", () => {
		const sent: string[] = [];
		const { box, input, press } = mount(sent);
		box.setEnabled(true);
		input.value = "line one";
		expect(press({ key: "Enter", shiftKey: true }).defaultPrevented).toBe(false);
		expect(sent).toEqual([]);
	});

	it("sends nothing while the stream is not open, and keeps what was typed", () => {
		const sent: string[] = [];
		const { box, input, press } = mount(sent);
		box.setEnabled(true);
		input.value = "typed before the close";
		box.setEnabled(false);
		press({ key: "Enter" });
		(box.el.querySelector("button") as HTMLButtonElement).click();
		expect(sent).toEqual([]);
		expect(input.value).toBe("typed before the close");
		expect(input.readOnly).toBe(true);
	});

	it("sends with the button too, but never an empty message", () => {
		const sent: string[] = [];
		const { box, input } = mount(sent);
		box.setEnabled(true);
		const button = box.el.querySelector("button") as HTMLButtonElement;
		button.click();
		input.value = "x";
		button.click();
		expect(sent).toEqual(["x"]);
	});
});
