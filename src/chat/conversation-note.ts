import type { ChatMessage } from "./client";

/**
 * A conversation saved as a Markdown note (docs/chat.md): YAML front matter with the
 * model and the date, then one `## You` / `## Assistant` section per message. Reopening the
 * note resumes the conversation; nothing is stored anywhere else.
 */
export interface Conversation {
	model: string;
	/** ISO 8601 date-time of the first message. */
	created: string;
	/** User and assistant turns, oldest first (the system prompt is never saved). */
	messages: ChatMessage[];
	/** Front matter lines we do not own (tags the user added…), kept as written. */
	extraFrontMatter: string[];
}

/** Front matter key and value that mark a note as a conversation. */
export const CHAT_MARKER = "runnable-blocks: chat";

const HEADINGS: Record<"user" | "assistant", string> = { user: "## You", assistant: "## Assistant" };
const HEADING = /^## (You|Assistant)$/;
// A line of a message that reads as a heading gets one more backslash (Markdown shows `\##` as `##`).
const ESCAPED = /^(\\*)## (You|Assistant)$/;

/** A message's text as a note keeps it: \n line ends, no blank lines around it. */
export function normalizeContent(text: string): string {
	return text.replace(/\r\n?/g, "\n").replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

const yamlString = (s: string) => JSON.stringify(s);

export function serializeConversation(c: Conversation): string {
	const front = ["---", CHAT_MARKER, `model: ${yamlString(c.model)}`, `created: ${c.created}`, ...c.extraFrontMatter, "---"];
	const sections = c.messages
		.filter((m): m is ChatMessage & { role: "user" | "assistant" } => m.role !== "system")
		.map((m) => {
			const body = normalizeContent(m.content)
				.split("\n")
				.map((line) => line.replace(ESCAPED, "\\$1## $2"))
				.join("\n");
			return `${HEADINGS[m.role]}\n\n${body}\n`;
		});
	return `${front.join("\n")}\n\n${sections.join("\n")}`;
}

/** Reads a conversation note back; null when the note is not one (no chat marker in its front matter). */
export function parseConversation(text: string): Conversation | null {
	const lines = text.replace(/\r\n?/g, "\n").split("\n");
	if (lines[0] !== "---") return null;
	const end = lines.indexOf("---", 1);
	if (end < 0) return null;
	const front = lines.slice(1, end);
	if (!front.includes(CHAT_MARKER)) return null;
	const c: Conversation = { model: "", created: "", messages: [], extraFrontMatter: [] };
	for (const line of front) {
		if (line === CHAT_MARKER) continue;
		const m = /^(model|created):\s*(.*)$/.exec(line);
		if (!m) c.extraFrontMatter.push(line);
		else if (m[1] === "model") c.model = yamlValue(m[2]);
		else c.created = yamlValue(m[2]);
	}
	let current: { role: "user" | "assistant"; lines: string[] } | null = null;
	const flush = () => {
		if (current) c.messages.push({ role: current.role, content: normalizeContent(current.lines.join("\n")) });
	};
	for (const line of lines.slice(end + 1)) {
		const heading = HEADING.exec(line);
		if (heading) {
			flush();
			current = { role: heading[1] === "You" ? "user" : "assistant", lines: [] };
		} else if (current) {
			const escaped = ESCAPED.exec(line);
			current.lines.push(escaped && escaped[1].length > 0 ? line.slice(1) : line);
		}
	}
	flush();
	return c;
}

function yamlValue(raw: string): string {
	const v = raw.trim();
	if (v.startsWith('"')) {
		try {
			return JSON.parse(v) as string;
		} catch {
			return v;
		}
	}
	if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) return v.slice(1, -1).replace(/''/g, "'");
	return v;
}

/** A file name for a new conversation: its date and the first words of the question. */
export function conversationFileName(question: string, created: Date): string {
	const stamp = created.toISOString().slice(0, 16).replace("T", " ").replace(":", "-");
	const words = question
		.replace(/[\\/:*?"<>|#^[\]\n\r\t]+/g, " ")
		.trim()
		.split(/\s+/)
		.slice(0, 6)
		.join(" ")
		.slice(0, 50)
		.trim();
	return `${stamp}${words ? ` ${words}` : ""}.md`;
}
