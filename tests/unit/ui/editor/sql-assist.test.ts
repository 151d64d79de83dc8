/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import { CompletionContext, type CompletionResult, type CompletionSource } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { SchemaCache } from "../../../../src/runner/db/schema-cache";
import type { Connection } from "../../../../src/settings/connections";
import { sqlAssist, type SqlAssistPort } from "../../../../src/ui/editor/sql-assist";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";
import { dbEngine, sqliteImage } from "../../../support/db-engine";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
// lang-sql and the schema assist are required on first use, compiled then.
jest.setTimeout(30_000);

const shop: Connection = { type: "sqlite", path: "shop.sqlite", readonly: true };
const server = (type: "postgres" | "mysql"): Connection => ({ type, host: "127.0.0.1", port: 1, database: "x", user: "x" }) as Connection;

let images: Record<string, Uint8Array>;
beforeAll(async () => {
	images = { "shop.sqlite": await sqliteImage("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL);") };
});

/** The ports' database drivers, closed after each test. */
const opened: Array<() => Promise<void>> = [];

/** A port whose connections the test may replace, as a user.toml reload does; schemas read real sql.js images. */
function portOf(initial: Record<string, Connection>): SqlAssistPort & { set(next: Record<string, Connection>): void } {
	let connections = initial;
	const { drivers, close } = dbEngine(initial, images);
	opened.push(close);
	return {
		connections: () => connections,
		schemas: new SchemaCache(() => ({ connections, drivers })),
		set: (next) => (connections = next),
	};
}

function editor(doc: string, port: SqlAssistPort): EditorView {
	return new EditorView({ state: EditorState.create({ doc, extensions: [sqlAssist(port)] }), parent: document.body });
}

/** The texts the editor shows marked with a class, in document order. */
const marked = (view: EditorView, cls: string) => [...view.contentDOM.querySelectorAll(`.${cls}`)].map((el) => el.textContent);

/** The completion the editor's language data offers at `marker` (removed from the doc), asked for explicitly. */
async function completeAt(doc: string, marker: string, port: SqlAssistPort): Promise<CompletionResult | null | "no source"> {
	const pos = doc.indexOf(marker);
	const state = EditorState.create({ doc: doc.replace(marker, ""), extensions: [sqlAssist(port)] });
	const [source] = state.languageDataAt<CompletionSource>("autocomplete", pos);
	if (!source) return "no source";
	return source(new CompletionContext(state, pos, true));
}

afterEach(async () => {
	document.body.empty();
	for (const close of opened.splice(0)) await close();
});

describe("sqlAssist highlighting", () => {
	it("marks the SQL of db blocks by token kind, and nothing outside them", () => {
		const port = portOf({ shop });
		const view = editor("SELECT prose\n\n```db connection=shop\nSELECT title, 42 FROM books WHERE id = 'x' -- why\n```\n\n```sql\nSELECT 1\n```\n", port);
		expect(marked(view, "rb-sql-keyword")).toEqual(["SELECT", "FROM", "WHERE"]);
		expect(marked(view, "rb-sql-value")).toEqual(["42"]);
		expect(marked(view, "rb-sql-string")).toEqual(["'x'"]);
		expect(marked(view, "rb-sql-comment")).toEqual(["-- why"]);
		expect(marked(view, "rb-sql-operator")).toEqual(["="]);
		view.destroy();
	});

	it("marks a token across lines line by line, leaving a container's prefix unmarked", () => {
		const port = portOf({ shop });
		const view = editor("> ```db connection=shop\n> SELECT /* one\n> two */ 1\n> ```\n", port);
		expect(marked(view, "rb-sql-comment")).toEqual(["/* one", "two */"]);
		expect(marked(view, "rb-sql-keyword")).toEqual(["SELECT"]);
		view.destroy();
	});

	it.each([
		["mysql", "SELECT 1 # note", ["# note"]],
		["postgres", "SELECT 1 # note", []],
		["sqlite", "SELECT 1 # note", []],
	] as const)("reads the SQL in its connection's dialect (%s)", (type, sql, comments) => {
		const port = portOf({ db: type === "sqlite" ? shop : server(type) });
		const view = editor(`\`\`\`db connection=db\n${sql}\n\`\`\`\n`, port);
		expect(marked(view, "rb-sql-comment")).toEqual(comments);
		view.destroy();
	});

	it("highlights again when the connections change (user.toml loads after the editor opens)", () => {
		const port = portOf({});
		const view = editor("```db connection=db\nSELECT 1 # note\n```\n", port);
		expect(marked(view, "rb-sql-comment")).toEqual([]);
		port.set({ db: server("mysql") });
		view.dispatch({ selection: { anchor: 1 } });
		expect(marked(view, "rb-sql-comment")).toEqual(["# note"]);
		view.destroy();
	});

	it("follows an edit of the SQL", () => {
		const port = portOf({ shop });
		const doc = "```db connection=shop\nSELECT 1\n```\n";
		const view = editor(doc, port);
		view.dispatch({ changes: { from: doc.indexOf("1"), insert: "2 FROM t WHERE " } });
		expect(marked(view, "rb-sql-keyword")).toEqual(["SELECT", "FROM", "WHERE"]);
		view.destroy();
	});
});

describe("sqlAssist completion", () => {
	it("completes the connection's tables inside a db block, from the real schema", async () => {
		const port = portOf({ shop });
		const got = await completeAt("```db connection=shop\nSELECT * FROM b|\n```\n", "|", port);
		expect(got !== "no source" && got?.options.map((o) => o.label)).toEqual(["books"]);
	});

	it("offers columns with their types after a table's name", async () => {
		const port = portOf({ shop });
		const got = await completeAt("```db connection=shop\nSELECT books.| FROM books\n```\n", "|", port);
		expect(got !== "no source" && got?.options.map((o) => [o.label, o.detail])).toEqual([
			["id", "INTEGER"],
			["title", "TEXT"],
		]);
	});

	it("adds no completion source outside a db block's SQL", async () => {
		const port = portOf({ shop });
		await expect(completeAt("SELECT * FROM b| in prose\n\n```db connection=shop\nSELECT 1\n```\n", "|", port)).resolves.toBe("no source");
		await expect(completeAt("```db connection=shop|\nSELECT 1\n```\n", "|", port)).resolves.toBe("no source");
	});

	it("completes nothing when the block's connection is not configured", async () => {
		const port = portOf({ shop });
		await expect(completeAt("```db connection=gone\nSELECT * FROM b|\n```\n", "|", port)).resolves.toBeNull();
	});
});
