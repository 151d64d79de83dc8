import { Modal, type App } from "obsidian";
import { historyAlias, type Prompt } from "../blocks";
import type { AskPrompts, PromptReply } from "../runner/prompt-answers";
import { t } from "./strings";

/**
 * The plugin's `# @prompt` answers: a dialog with one field per prompt as the block starts. Run
 * (or Enter) sends the block with the values; Cancel, Escape or the run's Stop cancel it, nothing
 * sent. A field starts with what was typed for that name last in this session, a hidden one empty.
 * Blocks that start at once (a parallel run) ask one after another, never two dialogs together.
 */
export function modalPromptAsker(app: App): AskPrompts {
	const typed = new Map<string, string>();
	let queue: Promise<unknown> = Promise.resolve();
	const ask = ({ block, prompts }: Parameters<AskPrompts>[0], signal?: AbortSignal) =>
		new Promise<PromptReply>((resolve) => {
			if (signal?.aborted) return resolve({ ok: false, cancelled: true });
			const modal = new PromptModal(app, block.alias ?? historyAlias(block), prompts, (values) => {
				signal?.removeEventListener("abort", stop);
				if (values === null) return resolve({ ok: false, cancelled: true });
				for (const p of prompts) if (!p.secret) typed.set(p.name, values[p.name]);
				resolve({ ok: true, values });
			}, typed);
			const stop = () => modal.close();
			signal?.addEventListener("abort", stop);
			modal.open();
		});
	return (question, signal) => {
		const asked = queue.then(() => ask(question, signal));
		queue = asked;
		return asked;
	};
}

/** The fields of one block's prompts; `done` hears the values once, or null when it closes without them. */
export class PromptModal extends Modal {
	private values: Record<string, string> | null = null;

	constructor(
		app: App,
		private readonly blockName: string,
		private readonly prompts: readonly Prompt[],
		private readonly done: (values: Record<string, string> | null) => void,
		private readonly typed: ReadonlyMap<string, string>,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle(t("promptTitle", { block: this.blockName }));
		const form = this.contentEl.createEl("form", { cls: "runnable-prompt" });
		const inputs = this.prompts.map((p) => {
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
		buttons.createEl("button", { cls: "mod-cta", text: t("promptRun"), attr: { type: "submit" } });
		buttons.createEl("button", { text: t("promptCancel"), attr: { type: "button" } }).addEventListener("click", () => this.close());
		// Enter in any field submits the form: the values are sent as typed, an empty one included.
		form.addEventListener("submit", (e) => {
			e.preventDefault();
			this.values = Object.fromEntries(inputs.map(({ p, input }) => [p.name, input.value]));
			this.close();
		});
		(inputs.find(({ input }) => input.value === "") ?? inputs[0])?.input.focus();
	}

	override onClose(): void {
		this.contentEl.empty();
		this.done(this.values);
	}
}
