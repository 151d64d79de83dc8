import { Component, ItemView, type WorkspaceLeaf } from "obsidian";
import type { AnswerFence } from "../../chat/answer-fences";
import { insertableFence } from "../../chat/answer-fences";
import type { ChatMessage } from "../../chat/client";
import { blockChip, buildRequest, noteBlocksChip, previewText, responseChip, selectionChip, type BuiltRequest, type ContextChip } from "../../chat/context";
import { conversationFileName, normalizeContent, serializeConversation } from "../../chat/conversation-note";
import type { ChatFailure } from "../../chat/failures";
import { schemaChip } from "../../chat/schema-context";
import { maskSecrets } from "../../runner/mask-secrets";
import { notify } from "../notify";
import { button, renderAnswer } from "./answer-view";
import type { ChatHost, SavedConversation } from "./chat-host";
import { chatFailureKey, t } from "../strings";
import { CHAT_VIEW_TYPE } from "./chat-view-type";

interface Turn {
	path: string | null;
	created: string;
	model: string;
	messages: ChatMessage[];
	/** Front matter lines the user added to the note (tags…), written back as they were. */
	extraFrontMatter: string[];
}

/**
 * The chat panel (docs/chat.md): a right-sidebar view. The conversation lives in its
 * note; this view keeps only what is on screen and the stream in flight.
 */
export class ChatView extends ItemView {
	private turn: Turn;
	private chips: ContextChip[] = [];
	/** The question and chips of the last send, for Retry. */
	private lastAsk: { question: string; chips: ContextChip[] } | null = null;
	private running: AbortController | null = null;
	private saved: SavedConversation[] = [];
	private models: string[] = [];

	private messagesEl!: HTMLElement;
	private errorEl!: HTMLElement;
	private chipsEl!: HTMLElement;
	private input!: HTMLTextAreaElement;
	private sendButton!: HTMLButtonElement;
	private stopButton!: HTMLButtonElement;
	private modelSelect!: HTMLSelectElement;
	private conversationSelect!: HTMLSelectElement;
	private previewSummary!: HTMLElement;
	private previewBody!: HTMLElement;
	private previewNote!: HTMLElement;
	private streamNote!: HTMLElement;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly host: ChatHost,
	) {
		super(leaf);
		this.turn = this.freshTurn();
	}

	getViewType(): string {
		return CHAT_VIEW_TYPE;
	}
	getDisplayText(): string {
		return t("chatTitle");
	}
	override getIcon(): string {
		return "messages-square";
	}

	private freshTurn(): Turn {
		return { path: null, created: new Date().toISOString(), model: this.host.settings().model, messages: [], extraFrontMatter: [] };
	}

	override async onOpen(): Promise<void> {
		const root = this.contentEl;
		root.empty();
		root.addClass("rb-chat");
		const top = root.createDiv({ cls: "rb-chat-top" });
		this.conversationSelect = top.createEl("select", { cls: "dropdown rb-chat-conversations", attr: { "aria-label": t("chatConversations") } });
		this.registerDomEvent(this.conversationSelect, "change", () => this.openConversation(this.conversationSelect.value));
		button(top, "plus", t("chatNewChat"), () => this.newConversation(), this);
		const models = root.createDiv({ cls: "rb-chat-models" });
		this.modelSelect = models.createEl("select", { cls: "dropdown rb-chat-model", attr: { "aria-label": t("chatModel") } });
		this.registerDomEvent(this.modelSelect, "change", () => {
			this.turn.model = this.modelSelect.value;
			this.updatePreview();
		});
		button(models, "refresh-cw", t("chatRefreshModels"), () => void this.loadModels(), this).addClass("clickable-icon");
		this.streamNote = root.createDiv({ cls: "rb-chat-note" });
		this.renderStreamNote();

		this.messagesEl = root.createDiv({ cls: "rb-chat-messages" });
		this.errorEl = root.createDiv({ cls: "rb-chat-error" });
		this.errorEl.hide();

		const attach = root.createDiv({ cls: "rb-chat-attach" });
		button(attach, "files", t("chatAttachNote"), () => this.attach("note"), this);
		button(attach, "square-code", t("chatAttachBlock"), () => this.attach("block"), this);
		button(attach, "reply", t("chatAttachResponse"), () => this.attach("response"), this);
		button(attach, "text-select", t("chatAttachSelection"), () => this.attach("selection"), this);
		button(attach, "database", t("chatAttachSchema"), () => void this.attachSchema(), this);
		this.chipsEl = root.createDiv({ cls: "rb-chat-chips" });
		const quick = root.createDiv({ cls: "rb-chat-quick" });
		button(quick, "help-circle", t("chatExplainResponse"), () => this.explainResponse(), this);
		button(quick, "wand", t("chatWriteRequest"), () => this.startRequest(), this);

		const preview = root.createEl("details", { cls: "rb-chat-preview" });
		this.previewSummary = preview.createEl("summary");
		this.previewNote = preview.createDiv({ cls: "rb-chat-preview-note" });
		this.previewBody = preview.createEl("pre", { cls: "rb-chat-preview-body" });

		this.input = root.createEl("textarea", { cls: "rb-chat-input", attr: { placeholder: t("chatPlaceholder"), rows: "3", "aria-label": t("chatPlaceholder") } });
		this.registerDomEvent(this.input, "keydown", (e) => {
			if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
				e.preventDefault();
				void this.send();
			}
		});
		this.registerDomEvent(this.input, "input", () => this.updatePreview());
		const actions = root.createDiv({ cls: "rb-chat-actions" });
		this.sendButton = button(actions, "send", t("chatSend"), () => void this.send(), this);
		this.sendButton.addClass("mod-cta");
		this.stopButton = button(actions, "square", t("chatStop"), () => this.running?.abort(), this);
		this.stopButton.hide();

		if (this.host.settings().attachCurrentBlock) this.attach("block", true);
		this.renderMessages();
		this.updatePreview();
		await Promise.all([this.loadModels(), this.loadConversations()]);
	}

	override async onClose(): Promise<void> {
		this.running?.abort();
	}

	/** Says when answers arrive whole, and why; the first request may learn that the server refuses streaming. */
	private renderStreamNote(): void {
		const mode = this.host.streamMode();
		this.streamNote.toggle(!mode.streams);
		this.streamNote.setText(mode.streams ? "" : t(mode.reason === "server" ? "chatNoStreamingServer" : "chatNoStreaming"));
	}

	private async loadModels(): Promise<void> {
		const out = await this.host.client().models();
		this.renderStreamNote();
		if (out.kind === "failed") this.showFailure(out.failure);
		else if (out.kind === "done") {
			this.models = out.models;
			this.hideFailure();
		}
		this.renderModelPicker();
	}

	private renderModelPicker(): void {
		const select = this.modelSelect;
		select.empty();
		const ids = [...new Set([...(this.turn.model ? [this.turn.model] : []), ...this.models])];
		if (!this.turn.model) select.createEl("option", { text: t("chatNoModel"), value: "" });
		for (const id of ids) select.createEl("option", { text: id, value: id });
		select.value = this.turn.model;
	}

	private async loadConversations(): Promise<void> {
		this.saved = await this.host.listConversations();
		const select = this.conversationSelect;
		select.empty();
		select.createEl("option", { text: t("chatNewChat"), value: "" });
		for (const s of this.saved) select.createEl("option", { text: s.path.split("/").pop()?.replace(/\.md$/, "") ?? s.path, value: s.path });
		select.value = this.turn.path ?? "";
	}

	/** Resumes a saved conversation from the panel's list (its note is the only copy). */
	openConversation(path: string): void {
		const found = this.saved.find((s) => s.path === path);
		if (!found) return this.newConversation();
		this.resume(found);
	}

	/** The path of the conversation on screen, null for a new one. */
	conversationPath(): string | null {
		return this.turn.path;
	}

	isRunning(): boolean {
		return this.running !== null;
	}

	/** Shows a saved conversation, read again from its note, so the next message continues it. */
	resume(saved: SavedConversation): void {
		if (this.running) return;
		const c = saved.conversation;
		this.turn = { path: saved.path, created: c.created || new Date().toISOString(), model: c.model || this.host.settings().model, messages: c.messages, extraFrontMatter: c.extraFrontMatter };
		this.lastAsk = null;
		if (!this.saved.some((s) => s.path === saved.path)) this.saved.unshift(saved);
		if (!Array.from(this.conversationSelect.options).some((o) => o.value === saved.path)) {
			this.conversationSelect.createEl("option", { text: saved.path.split("/").pop()?.replace(/\.md$/, "") ?? saved.path, value: saved.path });
		}
		this.conversationSelect.value = saved.path;
		this.hideFailure();
		this.renderModelPicker();
		this.renderMessages();
		this.updatePreview();
	}

	newConversation(): void {
		this.running?.abort();
		this.turn = this.freshTurn();
		this.chips = [];
		this.lastAsk = null;
		this.conversationSelect.value = "";
		this.hideFailure();
		this.renderModelPicker();
		this.renderChips();
		this.renderMessages();
		this.updatePreview();
	}

	private attach(kind: "note" | "block" | "response" | "selection", quiet = false): boolean {
		const ctx = this.host.editor();
		const refuse = (what: string) => {
			if (!quiet) notify(t("chatNothingToAttach", { what }));
			return false;
		};
		if (!ctx) return refuse(t("chatNoEditor"));
		let chip: ContextChip;
		if (kind === "note") {
			if (ctx.blocks.length === 0) return refuse(t("chatNoBlocks"));
			chip = noteBlocksChip(ctx.blocks, ctx.path);
		} else if (kind === "selection") {
			if (!ctx.selection.trim()) return refuse(t("chatNoSelection"));
			chip = selectionChip(ctx.selection);
		} else {
			if (!ctx.block) return refuse(t("chatNoBlockAtCursor"));
			if (kind === "block") chip = blockChip(ctx.block, ctx.path, ctx.block.kind === "http" ? this.host.prepare(ctx.path, ctx.blocks, ctx.block) : undefined);
			else {
				const result = this.host.lastResult(ctx.path, ctx.block);
				if (!result) return refuse(t("chatNoResponse"));
				chip = responseChip(ctx.block.alias ?? `block ${ctx.block.index + 1}`, result, this.host.settings().responseCap);
			}
		}
		if (!this.chips.some((c) => c.kind === chip.kind && c.text === chip.text)) this.chips.push(chip);
		this.renderChips();
		this.updatePreview();
		return true;
	}

	/** Attaches the schema of the connection the db block under the cursor uses. */
	private async attachSchema(): Promise<boolean> {
		const ctx = this.host.editor();
		if (!ctx) return (notify(t("chatNothingToAttach", { what: t("chatNoEditor") })), false);
		if (ctx.block?.kind !== "db") return (notify(t("chatNothingToAttach", { what: t("chatNoDbBlock") })), false);
		const found = await this.host.dbSchema(ctx.block);
		if (found === null) return (notify(t("chatNothingToAttach", { what: t("chatDbUnavailable") })), false);
		if (!found.ok) return (notify(t("chatSchemaFailed", { message: found.detail ? `${found.message} (${found.detail})` : found.message })), false);
		const chip = schemaChip(found.connection, found.dialect, found.tables, this.host.settings().responseCap);
		if (!this.chips.some((c) => c.kind === chip.kind && c.text === chip.text)) this.chips.push(chip);
		this.renderChips();
		this.updatePreview();
		return true;
	}

	private explainResponse(): void {
		if (!this.attach("response")) return;
		this.input.value = t("chatExplainQuestion");
		this.updatePreview();
		this.input.focus();
	}

	private startRequest(): void {
		this.input.value = t("chatWriteRequestStart");
		this.input.focus();
		this.input.setSelectionRange(this.input.value.length, this.input.value.length);
		this.updatePreview();
	}

	private renderChips(): void {
		this.chipsEl.empty();
		this.chips.forEach((chip, i) => {
			const el = this.chipsEl.createDiv({ cls: "rb-chat-chip", attr: { "data-kind": chip.kind } });
			el.createSpan({ text: chip.label });
			button(el, "x", t("chatRemoveChip", { label: chip.label }), () => {
				this.chips.splice(i, 1);
				this.renderChips();
				this.updatePreview();
			}, this).addClass("clickable-icon");
		});
	}

	private build(question: string, chips: readonly ContextChip[], history: readonly ChatMessage[]): BuiltRequest {
		const s = this.host.settings();
		return buildRequest({ model: this.turn.model, temperature: s.temperature, history, question, chips, secretValues: this.host.secretValues(), maxContextTokens: s.maxContextTokens });
	}

	/** Shows exactly what Send would send now (secrets already masked, the key as •••). */
	private updatePreview(): void {
		const built = this.build(this.input.value.trim(), this.chips, this.turn.messages);
		const s = this.host.settings();
		this.previewSummary.setText(t("chatPreview", { tokens: built.tokens }));
		this.previewNote.setText(built.overLimit ? t("chatOverLimit", { max: s.maxContextTokens }) : built.droppedTurns > 0 ? t("chatDroppedTurns", { n: built.droppedTurns, max: s.maxContextTokens }) : "");
		this.previewBody.setText(previewText({ baseUrl: s.baseUrl, apiKey: s.apiKeySecret ? "•••" : null }, built, this.host.client().streams));
	}

	private renderMessages(): void {
		this.messagesEl.empty();
		this.turn.messages.forEach((m, i) => this.renderMessage(m, i === this.turn.messages.length - 1));
	}

	private renderMessage(m: ChatMessage, last: boolean): HTMLElement {
		const el = this.messagesEl.createDiv({ cls: `rb-chat-message rb-chat-${m.role}` });
		el.createDiv({ cls: "rb-chat-role", text: m.role === "user" ? t("chatYou") : t("chatAssistant") });
		const body = el.createDiv({ cls: "rb-chat-body" });
		if (m.role === "user") body.setText(m.content);
		else void renderAnswer(this.app, body, m.content, this.turn.path ?? "", this, { insert: (f) => this.insert(f), copy: (t) => this.copy(t) });
		if (m.role === "assistant") {
			const bar = el.createDiv({ cls: "rb-chat-message-actions" });
			button(bar, "copy", t("chatCopy"), () => this.copy(m.content), this);
			if (last) button(bar, "rotate-ccw", t("chatRetry"), () => void this.retry(), this);
		}
		return el;
	}

	private copy(text: string): void {
		void navigator.clipboard.writeText(text).then(() => notify(t("chatCopied")));
	}

	/** Inserts a fence on the line after the cursor (after the block when the cursor is in one), alias de-duplicated. */
	private insert(fence: AnswerFence): void {
		const ctx = this.host.editor();
		if (!ctx) return notify(t("chatNoEditor"));
		const out = fence.runnable ? insertableFence(fence.text, ctx.text) : { text: fence.text, alias: null, renamedFrom: null };
		const line = ctx.block ? ctx.block.fence.endLine : ctx.editor.getCursor().line;
		const end = { line, ch: ctx.editor.getLine(line).length };
		ctx.editor.replaceRange(`\n\n${out.text}\n`, end);
		if (out.renamedFrom && out.alias) notify(t("chatRenamedAlias", { from: out.renamedFrom, to: out.alias }));
		else notify(t("chatInserted", { what: out.alias ?? fence.lang ?? "" }));
	}

	private async retry(): Promise<void> {
		if (this.running) return;
		const messages = this.turn.messages;
		if (messages[messages.length - 1]?.role === "assistant") messages.pop();
		const question = messages[messages.length - 1]?.role === "user" ? messages.pop()?.content : this.lastAsk?.question;
		if (question === undefined) return;
		await this.ask(question, this.lastAsk?.question === question ? this.lastAsk.chips : []);
	}

	async send(): Promise<void> {
		const question = this.input.value.trim();
		if (!question || this.running) return;
		this.input.value = "";
		const chips = this.chips;
		this.chips = [];
		this.renderChips();
		await this.ask(question, chips);
	}

	private async ask(question: string, chips: ContextChip[]): Promise<void> {
		if (!this.turn.model) {
			this.input.value = question;
			return notify(t("chatChooseModelFirst"));
		}
		this.lastAsk = { question, chips };
		const built = this.build(question, chips, this.turn.messages);
		// What the note keeps is what was sent: the question with any secret masked.
		this.turn.messages.push({ role: "user", content: normalizeContent(maskSecrets(question, this.host.secretValues())) });
		this.hideFailure();
		this.renderMessages();
		const answer: ChatMessage = { role: "assistant", content: "" };
		const el = this.messagesEl.createDiv({ cls: "rb-chat-message rb-chat-assistant rb-chat-streaming" });
		el.createDiv({ cls: "rb-chat-role", text: t("chatAssistant") });
		const body = el.createDiv({ cls: "rb-chat-body", text: t("chatThinking") });
		const controller = new AbortController();
		this.running = controller;
		this.setRunning(true);
		let rendered: Component | null = null;
		let pending = false;
		const paint = async () => {
			pending = false;
			const previous = rendered;
			rendered = await renderAnswer(this.app, body, answer.content, this.turn.path ?? "", this, { insert: (f) => this.insert(f), copy: (t) => this.copy(t) });
			if (previous) this.removeChild(previous);
			this.messagesEl.scrollTop = this.messagesEl.scrollHeight;
		};
		const out = await this.host.client().complete(built.body, {
			signal: controller.signal,
			onDelta: (_d, text) => {
				answer.content = text;
				// One render per frame however fast the deltas come.
				if (!pending) {
					pending = true;
					window.requestAnimationFrame(() => void paint());
				}
			},
		});
		this.running = null;
		this.setRunning(false);
		this.renderStreamNote();
		if (out.kind === "failed") {
			this.showFailure(out.failure);
			if (!out.text) {
				el.remove();
				return;
			}
		}
		answer.content = normalizeContent(out.text) + (out.kind === "cancelled" ? `\n\n*${t("chatStopped")}*` : "");
		if (!answer.content.trim()) return void el.remove();
		this.turn.messages.push(answer);
		this.renderMessages();
		await this.save(question);
	}

	private async save(question: string): Promise<void> {
		const text = serializeConversation({ model: this.turn.model, created: this.turn.created, messages: this.turn.messages, extraFrontMatter: this.turn.extraFrontMatter });
		const first = this.turn.path === null;
		this.turn.path = await this.host.saveConversation(this.turn.path, conversationFileName(question, new Date(this.turn.created)), text);
		if (first) await this.loadConversations();
	}

	private setRunning(on: boolean): void {
		this.sendButton.toggle(!on);
		this.stopButton.toggle(on);
		this.contentEl.toggleClass("rb-chat-running", on);
	}

	private showFailure(f: ChatFailure): void {
		this.errorEl.empty();
		this.errorEl.show();
		this.errorEl.setAttr("data-code", f.code);
		const s = this.host.settings();
		this.errorEl.createDiv({ cls: "rb-chat-error-message", text: t(chatFailureKey(f.code), { url: s.baseUrl, model: this.turn.model, seconds: Math.round(s.timeoutMs / 100) / 10 }) });
		if (f.retryAfterSeconds !== undefined) this.errorEl.createDiv({ text: t("chatRetryIn", { seconds: f.retryAfterSeconds }) });
		this.errorEl.createDiv({ cls: "rb-chat-error-detail", text: f.detail });
		if (this.lastAsk) button(this.errorEl, "rotate-ccw", t("chatRetry"), () => void this.retry(), this);
	}

	private hideFailure(): void {
		this.errorEl.empty();
		this.errorEl.hide();
	}
}
