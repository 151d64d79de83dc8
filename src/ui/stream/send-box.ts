import { Component } from "obsidian";
import { t } from "../strings";

/** Enter sends; Shift+Enter is a new line; Enter that ends an IME composition only confirms it. */
export function isSendKey(e: Pick<KeyboardEvent, "key" | "shiftKey" | "isComposing">): boolean {
	return e.key === "Enter" && !e.shiftKey && !e.isComposing;
}

/**
 * The box under the message list that sends one more message while the stream is open. What was
 * typed stays in the box until it is sent, and stays there when the stream closes first.
 */
export class SendBox extends Component {
	readonly el: HTMLElement;
	private readonly input: HTMLTextAreaElement;
	private readonly button: HTMLButtonElement;
	private enabled = false;

	constructor(
		parent: HTMLElement,
		private readonly send: (text: string) => void,
	) {
		super();
		this.el = parent.createDiv({ cls: "rb-stream-send" });
		this.input = this.el.createEl("textarea", { cls: "rb-stream-send-input", attr: { rows: 1, placeholder: t("streamSendPlaceholder"), "aria-label": t("streamSendPlaceholder") } });
		this.button = this.el.createEl("button", { cls: "rb-stream-send-button mod-cta", text: t("streamSend") });
		this.setEnabled(false);
	}

	override onload(): void {
		this.registerDomEvent(this.input, "keydown", (e: KeyboardEvent) => {
			if (!isSendKey(e)) return;
			e.preventDefault();
			this.submit();
		});
		this.registerDomEvent(this.button, "click", () => this.submit());
	}

	override onunload(): void {
		this.el.remove();
	}

	/** Only an open stream takes messages; a closed one keeps the box (and its text) read-only. */
	setEnabled(enabled: boolean): void {
		if (enabled === this.enabled && this.button.disabled === !enabled) return;
		this.enabled = enabled;
		this.input.readOnly = !enabled;
		this.button.disabled = !enabled;
		this.el.toggleClass("is-disabled", !enabled);
	}

	private submit(): void {
		const text = this.input.value;
		if (!this.enabled || text === "") return;
		this.send(text);
		this.input.value = "";
	}
}
