import { EditorState } from "@codemirror/state";
import { parseNote, refCompletions, refTrigger } from "../../../src/blocks";

const NOTE = ["```http alias=login", "POST {{base_url}}/login", "```", "text {{ outside", "```http", "GET {{base_url}}/me", "Authorization: Bearer {{", "```", "```http alias=later", "GET /x", "```"].join("\n");
const sources = {
	variables: ["base_url", "token"],
	cachedBody: (alias: string) => (alias === "login" ? JSON.stringify({ token: "t", user: { id: 1, roles: ["a"] }, items: [{ id: 7 }] }) : undefined),
};

/** Types `typed` at the end of line `line` of NOTE in a real CodeMirror state and asks for completions. */
function complete(typed: string, line = 7): { labels: string[]; hints: string[] } {
	let state = EditorState.create({ doc: NOTE });
	const at = state.doc.line(line).to;
	state = state.update({ changes: { from: at, insert: typed }, selection: { anchor: at + typed.length } }).state;
	const text = state.doc.toString();
	const note = parseNote(text);
	const trig = refTrigger(note, text, state.selection.main.head);
	if (!trig) return { labels: [], hints: [] };
	const items = refCompletions(note, trig.block, trig.query, sources);
	return { labels: items.map((i) => i.insert), hints: items.map((i) => i.hint) };
}

describe("{{ completion", () => {
	it("lists aliases above the cursor with (cached), variables with (env), and built-ins", () => {
		const { labels, hints } = complete("");
		expect(labels.slice(0, 3)).toEqual(["login.response.body.$.", "login.response.status", "login.response.headers."]);
		expect(hints.slice(0, 3)).toEqual(["(cached)", "(cached)", "(cached)"]);
		expect(labels).not.toContain("later.response.status");
		expect(labels).toEqual(expect.arrayContaining(["base_url", "token", "uuid", "$guid"]));
		expect(hints[labels.indexOf("token")]).toBe("(env)");
	});

	it("filters as you type", () => {
		expect(complete("tok").labels).toEqual(["token"]);
		expect(complete("env").labels).toEqual(["$dotenv NAME", "$processEnv NAME"]);
		expect(complete("login.response.s").labels).toEqual(["login.response.status"]);
	});

	it("offers the keys of the cached JSON after alias.response.body.$.", () => {
		expect(complete("login.response.body.$.").labels).toEqual(["login.response.body.$.token", "login.response.body.$.user", "login.response.body.$.items"]);
		expect(complete("login.response.body.$.user.").labels).toEqual(["login.response.body.$.user.id", "login.response.body.$.user.roles"]);
		expect(complete("login.response.body.$.items.").labels).toEqual(["login.response.body.$.items[0]"]);
		expect(complete("login.response.body.$.u").labels).toEqual(["login.response.body.$.user"]);
	});

	it("does not open outside blocks, after }}, or on \\{{", () => {
		expect(refTrigger(parseNote(NOTE), NOTE, NOTE.indexOf("{{ outside") + 3)).toBeNull();
		expect(complete("x}} ").labels).toEqual([]);
		let state = EditorState.create({ doc: "```http\nGET \\{{\n```" });
		state = state.update({ selection: { anchor: 14 } }).state;
		expect(refTrigger(parseNote(state.doc.toString()), state.doc.toString(), 14)).toBeNull();
	});
});

describe("completion of a stream block's alias", () => {
	it("offers its messages paths", () => {
		const note = parseNote("```http\n# @name feed\nSSE http://x/e\n```\n\n```http\nGET http://x/{{fe\n```");
		const found = refCompletions(note, note[1], "fe", { variables: [], cachedBody: () => undefined });
		expect(found.map((c) => c.insert)).toEqual(["feed.response.messages.count", "feed.response.messages.-1.data", "feed.response.messages.0.data.$.", "feed.response.status"]);
	});
});

describe("{{[[ completion: other notes and their aliases", () => {
	const AUTH = parseNote(["```http alias=login", "POST /login", "```", "```http", "GET /anonymous", "```"].join("\n"));
	const other = { ...sources, notes: ["Auth", "APIs/Orders", "My notes/Auth old"], noteBlocks: (link: string) => (link === "Auth" ? AUTH : undefined) };
	const ask = (typed: string) => {
		const text = `\`\`\`http\nGET /x?t={{${typed}\n\`\`\``;
		const note = parseNote(text);
		const trig = refTrigger(note, text, text.indexOf("\n```", 8));
		return trig ? refCompletions(note, trig.block, trig.query, other).map((i) => [i.insert, i.hint]) : null;
	};

	it("after [[ offers the vault's notes, filtered as typed, ready for #", () => {
		expect(ask("[[")).toEqual([["[[Auth]]#", "(note)"], ["[[APIs/Orders]]#", "(note)"], ["[[My notes/Auth old]]#", "(note)"]]);
		expect(ask("[[auth")).toEqual([["[[Auth]]#", "(note)"], ["[[My notes/Auth old]]#", "(note)"]]);
		expect(ask("[[My notes/Au")).toEqual([["[[My notes/Auth old]]#", "(note)"]]);
	});

	it("after [[Note]]# offers that note's aliases with their paths (a block without an alias has none)", () => {
		expect(ask("[[Auth]]#")).toEqual([
			["[[Auth]]#login.response.body.$.", "(Auth)"],
			["[[Auth]]#login.response.status", "(Auth)"],
			["[[Auth]]#login.response.headers.", "(Auth)"],
		]);
		expect(ask("[[Auth]]#login.response.s")).toEqual([["[[Auth]]#login.response.status", "(Auth)"]]);
		expect(ask("[[Nowhere]]#")).toEqual([]);
	});
});

// issue 30: # @import
describe("{{ completion of imported aliases", () => {
	const AUTH = parseNote(["```http alias=login", "POST /login", "```", "```http alias=me", "GET /me", "```"].join("\n"));
	const ask = (typed: string) => {
		const text = `\`\`\`http alias=me\n# @import ./auth.http\nGET /x?t={{${typed}\n\`\`\``;
		const note = parseNote(text);
		const trig = refTrigger(note, text, text.indexOf("\n```", 8));
		return trig ? refCompletions(note, trig.block, trig.query, { ...sources, variables: [], imported: [{ file: "./auth.http", blocks: AUTH }] }).map((i) => [i.insert, i.hint]) : null;
	};

	it("offers the imported files' aliases marked with their file, filtered as typed", () => {
		expect(ask("log")).toEqual([
			["login.response.body.$.", "(./auth.http)"],
			["login.response.status", "(./auth.http)"],
			["login.response.headers.", "(./auth.http)"],
		]);
	});

	it("leaves out an imported alias the note defines itself (the note's own wins)", () => {
		expect(ask("me.")?.filter(([, hint]) => hint === "(./auth.http)")).toEqual([]);
	});
});
