import { Modal, type App } from "obsidian";
import { historyAlias, type Prompt } from "../blocks";
import { oneAtATime, type AskPrompts, type PromptQuestion, type PromptReply } from "../runner/prompt-answers";
import { t } from "./strings";

/**
 * The plugin's answers to what a block asks as it starts: a dialog with its `# @note` text and
 * one field per `# @prompt`. Send (or Enter) sends the block with the values; Cancel, Escape or
 * the run's Stop cancel it, nothing sent. A field starts with what was typed for that name last
 * in this session, a hidden one empty. Blocks that start at once (a parallel run) ask one after
 * another, never two dialogs together.
 */
export function modalPromptAsker(app: App): AskPrompts {
	const typed = new Map<string, string>();
	const inTurn = oneAtATime();
	const ask = ({ block, prompts, confirm }: PromptQuestion, signal?: AbortSignal) =>
		new Promise<PromptReply>((resolve) => {
			if (signal?.aborted) return resolve({ ok: false, cancelled: true });
			const modal = new PromptModal(app, { name: block.alias ?? historyAlias(block), prompts, confirm }, (values) => {
				signal?.removeEventListener("abort", stop);
				if (values === null) return resolve({ ok: false, cancelled: true });
				for (const p of prompts) if (!p.secret) typed.set(p.name, values[p.name]);
				resolve({ ok: true, values });
			}, typed);
			const stop = () => modal.close();
			signal?.addEventListener("abort", stop);
			modal.open();
		});
	return (question, signal) => inTurn(() => ask(question, signal));
}

/** What one block asks; `done` hears the values once, or null when it closes without them. */
export class PromptModal extends Modal {
	private values: Record<string, string> | null = null;

	constructor(
		app: App,
		private readonly asked: { name: string; prompts: readonly Prompt[]; confirm: string | null },
		private readonly done: (values: Record<string, string> | null) => void,
		private readonly typed: ReadonlyMap<string, string>,
	) {
		super(app);
	}

	override onOpen(): void {
		const { name, prompts, confirm } = this.asked;
		this.setTitle(t(prompts.length > 0 ? "promptTitle" : "promptConfirmTitle", { block: name }));
		const form = this.contentEl.createEl("form", { cls: "runnable-prompt" });
		// The note's own words (the peers show them as they are); a note without words says why it asks.
		if (confirm !== null) form.createEl("p", { cls: "runnable-prompt-note", text: confirm || t("promptConfirmDefault") });
		const inputs = prompts.map((p) => {
			const row = form.createDiv({ cls: "setting-item" });
			const info = row.createDiv({ cls: "setting-item-info" });
			const id = `runnable-prompt-${p.name}`;
			info.createEl("label", { cls: "setting-item-name", text: p.description || p.name, attr: { for: id } });
			info.createDiv({ cls: "setting-item-description", text: `{{${p.name}}}` });
			const input = row.createDiv({ cls: "setting-item-control" }).createEl("input", { type: p.secret ? "password" : "text", attr: { id, autocomplete: "off", spellcheck: "false" } });
			input.value = p.secret ? "" : (this.typed.get(p.name) ?? "");
			return { p, input };
		});
		const buttons = form.createDiv({ cls: "modal-button-container" });
		const send = buttons.createEl("button", { cls: "mod-cta", text: t("promptRun"), attr: { type: "submit" } });
		buttons.createEl("button", { text: t("promptCancel"), attr: { type: "button" } }).addEventListener("click", () => this.close());
		// Enter in any field submits the form: the values are sent as typed, an empty one included.
		form.addEventListener("submit", (e) => {
			e.preventDefault();
			this.values = Object.fromEntries(inputs.map(({ p, input }) => [p.name, input.value]));
			this.close();
		});
		((inputs.find(({ input }) => input.value === "") ?? inputs[0])?.input ?? send).focus();
	}

	override onClose(): void {
		this.contentEl.empty();
		this.done(this.values);
	}
}
