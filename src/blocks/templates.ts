import { TEXTDIFF_SEPARATOR } from "./textdiff";

/**
 * Slash-command templates (docs/shortcuts.md): `/` at the start of a line (after optional
 * indentation) opens them; choosing one inserts a block with the cursor on its URL or SQL line
 * (a diff's left pane, a flowchart's first line).
 */
export interface SlashTemplate {
	/** Name as listed ("HTTP POST"). */
	name: string;
	/** Text inserted in place of the `/query`, fence included. */
	text: string;
	/** Where the cursor lands, as an offset into `text`. */
	cursor: number;
	/**
	 * DB Query rows (`dbQueryRows`): the connection the row queries, or null for "New
	 * connection…". The block is made when the row is chosen (`dbQueryTemplate`), once the
	 * connection's first table is known.
	 */
	connection?: string | null;
	/** More words the query may match (a DB Query row: its connection, or the "New connection" label). */
	keywords?: string;
}

/** Builds a template whose cursor sits where `|` is written (the bar is removed). */
function template(name: string, withBar: string): SlashTemplate {
	const cursor = withBar.indexOf("|");
	return { name, text: withBar.replace("|", ""), cursor };
}

/** The eight entries of the seed, in its order. `connection` names the DB connection chosen for DB Query. */
export function slashTemplates(connection = "app"): SlashTemplate[] {
	return [
		template("HTTP Request", "```http\nGET |{{base_url}}/\nAccept: application/json\n```\n"),
		template("HTTP GET", "```http\nGET |{{base_url}}/\n```\n"),
		template("HTTP POST", '```http\nPOST |{{base_url}}/\nContent-Type: application/json\n\n{\n  "key": "value"\n}\n```\n'),
		template("HTTP PUT", '```http\nPUT |{{base_url}}/\nContent-Type: application/json\n\n{\n  "key": "value"\n}\n```\n'),
		template("HTTP DELETE", "```http\nDELETE |{{base_url}}/\n```\n"),
		template("DB Query", `\`\`\`db connection=${connection}\nSELECT |* FROM table_name LIMIT 100;\n\`\`\`\n`),
		// An empty diff: one empty line per pane around the separator, the cursor in the left pane.
		template("Diff", `\`\`\`textdiff\n|\n${TEXTDIFF_SEPARATOR}\n\n\`\`\`\n`),
		// Handed to Obsidian's own Mermaid renderer untouched: not one of our kinds.
		template("Mermaid", "```mermaid\n|flowchart TD\n  start([Request]) --> ok{2xx?}\n  ok -- yes --> done[Use the body]\n  ok -- no --> retry[Fix and run again]\n  retry --> start\n```\n"),
	];
}

/** The `/query` being typed at `ch` of `line`, or null when `/` is not a slash command there. */
export function slashTrigger(line: string, ch: number): { start: number; query: string } | null {
	const before = line.slice(0, ch);
	const m = /^([ \t]*)\/([A-Za-z][A-Za-z ]*)?$/.exec(before);
	if (!m) return null;
	// Only at the end of what is typed: `/usr/bin` or `/x` followed by text is not a command.
	if (line.slice(ch).trim() !== "") return null;
	return { start: m[1].length, query: m[2] ?? "" };
}

/** The DB Query block for a connection: `SELECT * FROM <first table> LIMIT 100;`, the cursor on the SQL line. */
export function dbQueryTemplate(connection: string, table: string | undefined): SlashTemplate {
	return template("DB Query", `\`\`\`db connection=${connection}\nSELECT |* FROM ${table ?? "table_name"} LIMIT 100;\n\`\`\`\n`);
}

/**
 * The slash list with DB Query opened up as a dropdown: one row per configured connection, in
 * user.toml order, then one for a new connection. The other entries stay as they are.
 */
export function dbQueryRows(templates: readonly SlashTemplate[], connections: readonly string[], newLabel = "New connection"): SlashTemplate[] {
	return templates.flatMap((t) => (t.name !== "DB Query" ? [t] : [...connections.map((c) => ({ ...dbQueryTemplate(c, undefined), connection: c, keywords: c })), { ...dbQueryTemplate("", undefined), connection: null, keywords: newLabel }]));
}

/** Entries matching the query: every word of the query starts a word of the name or of its keywords. */
export function filterTemplates(templates: readonly SlashTemplate[], query: string): SlashTemplate[] {
	const q = query.trim().toLowerCase();
	if (!q) return [...templates];
	const words = q.split(/\s+/);
	return templates.filter((t) => {
		const name = `${t.name} ${t.keywords ?? ""}`.toLowerCase();
		const nameWords = name.split(/\s+/);
		return words.every((w) => nameWords.some((n) => n.startsWith(w)));
	});
}

/** Indents a template for a line that starts with `indent` (lists, callouts keep their prefix). */
export function indentTemplate(t: SlashTemplate, indent: string): SlashTemplate {
	if (!indent) return t;
	const lines = t.text.split("\n");
	const text = lines.map((l, i) => (i === 0 || l === "" ? l : indent + l)).join("\n");
	const before = t.text.slice(0, t.cursor).split("\n").length - 1;
	return { ...t, text, cursor: t.cursor + before * indent.length };
}
