import { Component, MarkdownRenderer, setIcon, type App } from "obsidian";
import { answerFences, type AnswerFence } from "../../chat/answer-fences";
import { t } from "../strings";

export interface FenceActions {
	insert(fence: AnswerFence): void;
	copy(text: string): void;
}

/**
 * Renders an answer through Obsidian's Markdown renderer (never innerHTML: an answer is
 * untrusted text) and gives each code fence "Insert below cursor" and "Copy". Each call
 * replaces the previous rendering; the returned Component owns it.
 */
export async function renderAnswer(app: App, parent: HTMLElement, markdown: string, sourcePath: string, owner: Component, actions: FenceActions): Promise<Component> {
	const component = owner.addChild(new Component());
	const body = createDiv({ cls: "rb-chat-markdown" });
	await MarkdownRenderer.render(app, markdown, body, sourcePath, component);
	parent.empty();
	parent.appendChild(body);
	const fences = answerFences(markdown);
	const pres = Array.from(body.querySelectorAll("pre"));
	// Obsidian renders one <pre> per fence; when a fence sits where it renders otherwise, the actions go below the answer.
	const anchors = pres.length === fences.length ? pres : fences.map(() => null);
	fences.forEach((fence, i) => {
		const bar = createDiv({ cls: "rb-chat-fence-actions" });
		const anchor = anchors[i];
		if (anchor) anchor.insertAdjacentElement("afterend", bar);
		else parent.appendChild(bar);
		if (!anchor) bar.createSpan({ cls: "rb-chat-fence-lang", text: fence.text.split("\n")[0] });
		button(bar, "between-horizontal-end", t("chatInsertBelow"), () => actions.insert(fence), component);
		button(bar, "copy", t("chatCopy"), () => actions.copy(fence.text.split("\n").slice(1, -1).join("\n")), component);
	});
	return component;
}

export function button(parent: HTMLElement, icon: string, label: string, onClick: () => void, owner: Component): HTMLButtonElement {
	const el = parent.createEl("button", { cls: "rb-chat-button", attr: { "aria-label": label, type: "button" } });
	setIcon(el.createSpan({ cls: "rb-chat-button-icon" }), icon);
	el.createSpan({ text: label });
	owner.registerDomEvent(el, "click", (e) => {
		e.preventDefault();
		onClick();
	});
	return el;
}
