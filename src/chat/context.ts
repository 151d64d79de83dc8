import type { NoteBlock } from "../blocks";
import { maskSecrets } from "../runner/mask-secrets";
import type { Preparation } from "../runner/prepare";
import { shownRequest } from "../runner/request";
import { httpFields } from "../runner/http/http-run";
import type { BlockResult } from "../runner/result";
import { completionBody, completionHeaders, type ChatEndpoint, type ChatMessage, type CompletionBody } from "./client";

/**
 * One piece of context the user attached (docs/chat.md): nothing is attached unless the
 * user adds it. `text` is what goes into the message, before masking.
 */
export interface ContextChip {
	kind: "note_blocks" | "block" | "response" | "selection" | "db_schema";
	/** Short name shown on the chip ("login", "api.md: 3 blocks"). */
	label: string;
	text: string;
}

/** Tells the model what our blocks are, so the fences it writes can run. */
export const SYSTEM_PROMPT = [
	"You help the user write and understand runnable blocks in Obsidian notes.",
	"An http block is a fenced code block with the language `http`: a request line (METHOD URL), header lines, a blank line, then the body.",
	"An optional `alias=name` after the language names the block; `{{name.response.body.$.path}}` reads another block's JSON response and `{{variable}}` an environment variable.",
	"A db block (language `db`) holds one SQL query. Write requests as such fences so the user can insert and run them.",
	"Secret values appear as ••• and must never be guessed.",
].join(" ");

/** A fence for `text` that no backtick run inside it can close. */
export function fenced(text: string, lang = ""): string {
	const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	const fence = "`".repeat(longest + 1);
	return `${fence}${lang}\n${text.replace(/\n$/, "")}\n${fence}`;
}

const blockText = (block: NoteBlock) => `${block.canonicalFenceLine.replace(/^[\s>*+-]*/, "")}\n${block.fence.content}\n${block.fence.char.repeat(block.fence.length)}`;

/**
 * The block as written; with `sent` (an http block's `engine.prepare`), also the request Run would
 * send now (secrets as •••, by where they were substituted), or why it cannot run: the model then
 * sees the values the references take.
 */
export function blockChip(block: NoteBlock, notePath: string, sent?: Preparation): ContextChip {
	const name = block.alias ?? `block ${block.index + 1}`;
	const written = `Block \`${name}\` of ${notePath}:\n${fenced(blockText(block), "markdown")}`;
	return { kind: "block", label: name, text: sent ? `${written}\n${sentText(sent)}` : written };
}

function sentText(sent: Preparation): string {
	if (!sent.ok) return `It cannot run now: ${sent.error.message}`;
	const r = shownRequest(sent.request);
	const head = [`${r.method} ${r.url}`, ...r.headers.map(([n, v]) => `${n}: ${v}`)].join("\n");
	return `As Run would send it now (secrets as •••):\n${fenced(r.body ? `${head}\n\n${r.body}` : head, "http")}`;
}

export function noteBlocksChip(blocks: readonly NoteBlock[], notePath: string): ContextChip {
	const base = notePath.split("/").pop() ?? notePath;
	return { kind: "note_blocks", label: `${base}: ${blocks.length}`, text: `The runnable blocks of ${notePath}:\n${fenced(blocks.map(blockText).join("\n\n"), "markdown")}` };
}

export function selectionChip(selection: string): ContextChip {
	const words = selection.trim().split(/\s+/).slice(0, 4).join(" ");
	return { kind: "selection", label: words.length > 24 ? `${words.slice(0, 24)}…` : words, text: `Selected text:\n${fenced(selection)}` };
}

/**
 * A block's last run as text: request line (secrets already masked by where they were
 * substituted), status, headers and body, cut at `cap` characters.
 */
export function responseChip(alias: string, result: BlockResult, cap: number): ContextChip {
	const http = httpFields(result);
	const lines: string[] = [];
	if (http.request) {
		const r = shownRequest(http.request);
		lines.push(`${r.method} ${r.url}`);
	}
	if (http.head) {
		lines.push(`HTTP/${http.head.httpVersion} ${http.head.status} ${http.head.statusText}`.trimEnd());
		for (const [n, v] of http.head.headers) lines.push(`${n}: ${v}`);
	}
	if (result.error) lines.push(`Error: ${result.error.message}${result.error.detail ? ` (${result.error.detail})` : ""}`);
	if (http.body && http.body.byteLength > 0) lines.push("", new TextDecoder().decode(http.body));
	const full = lines.join("\n");
	const text = full.length > cap ? `${full.slice(0, cap)}\n… (${full.length - cap} more characters not attached)` : full;
	return { kind: "response", label: `${alias} → ${http.head?.status ?? result.state}`, text: `Last response of \`${alias}\`:\n${fenced(text, "http")}` };
}

export interface BuildInput {
	model: string;
	temperature: number | null;
	/** Earlier turns of the conversation, oldest first. */
	history: readonly ChatMessage[];
	question: string;
	chips: readonly ContextChip[];
	/** Values of the active environment's secrets: replaced by ••• wherever they appear. */
	secretValues: readonly string[];
	maxContextTokens: number;
}

export interface BuiltRequest {
	/** Exactly what is sent (stream is set by the transport's ability). */
	body: Omit<CompletionBody, "stream">;
	/** Estimated tokens of the messages sent. */
	tokens: number;
	/** Earliest turns left out to stay under max_context_tokens. */
	droppedTurns: number;
	/** True when even without history the request is over the limit. */
	overLimit: boolean;
}

/**
 * A rough token count (about four characters a token for English and code, plus a few
 * per message): enough to warn before sending, not to bill.
 */
export function estimateTokens(messages: readonly ChatMessage[]): number {
	return messages.reduce((n, m) => n + 4 + Math.ceil(m.content.length / 4), 3);
}

/** The user message: the question, then the attached context. */
export function userMessage(question: string, chips: readonly ContextChip[]): string {
	if (chips.length === 0) return question;
	return `${question}\n\n---\nContext I attached:\n\n${chips.map((c) => c.text).join("\n\n")}`;
}

/**
 * The request for the next turn: system prompt, as much history as fits, and the question with
 * its context — every message masked against the secret values before anything leaves.
 */
export function buildRequest(input: BuildInput): BuiltRequest {
	const mask = (text: string) => maskSecrets(text, input.secretValues);
	const system: ChatMessage = { role: "system", content: SYSTEM_PROMPT };
	const last: ChatMessage = { role: "user", content: mask(userMessage(input.question, input.chips)) };
	const history = input.history.map((m) => ({ role: m.role, content: mask(m.content) }));
	let kept = history.length;
	let tokens = estimateTokens([system, ...history, last]);
	while (kept > 0 && tokens > input.maxContextTokens) {
		kept--;
		tokens = estimateTokens([system, ...history.slice(history.length - kept), last]);
	}
	const messages = [system, ...history.slice(history.length - kept), last];
	return {
		body: { model: input.model, messages, ...(input.temperature !== null ? { temperature: input.temperature } : {}) },
		tokens,
		droppedTurns: history.length - kept,
		overLimit: tokens > input.maxContextTokens,
	};
}

/** The HTTP request as the panel previews it: the API key shown as •••, the body as sent. */
export function previewText(endpoint: ChatEndpoint, built: BuiltRequest, stream: boolean): string {
	const head = [`POST ${endpoint.baseUrl.replace(/\/+$/, "")}/chat/completions`, ...completionHeaders(endpoint, stream, true).map(([n, v]) => `${n}: ${v}`)];
	return `${head.join("\n")}\n\n${JSON.stringify(completionBody(built.body, stream), null, 2)}`;
}
