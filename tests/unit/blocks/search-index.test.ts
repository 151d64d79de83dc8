import * as noteModule from "../../../src/blocks/note";
import { BlockSearchIndex, displayOf, displayText, fuzzyScore, queryWords, type BlockEntry, type SearchEntry, type VariableEntry } from "../../../src/blocks";

const bookshop = [
	"# Bookshop", // 0
	"", // 1
	"```http alias=login", // 2
	"POST {{base_url}}/login", // 3
	"Content-Type: application/json", // 4
	"", // 5
	'{"user":"demo"}', // 6
	"```", // 7
	"", // 8
	"```http", // 9
	"# @name books", // 10
	"get {{base_url}}/books", // 11
	"?page=2", // 12
	"&size=10", // 13
	"```", // 14
	"", // 15
	"```js", // 16
	"console.log('not runnable')", // 17
	"```", // 18
	"", // 19
	"```db alias=titles", // 20
	"", // 21
	"SELECT title FROM books;", // 22
	"```", // 23
].join("\n");

const auth = "```http\nhttps://auth.example.com/token\n```\n";

function blocksOf(index: BlockSearchIndex, path?: string): BlockEntry[] {
	return index
		.search("", Infinity)
		.map((r) => r.entry)
		.filter((e): e is BlockEntry => e.kind === "block" && (path === undefined || e.path === path));
}

function highlighted(entry: SearchEntry, matches: Array<[number, number]>): string[] {
	const text = displayText(entry);
	return matches.map(([a, b]) => text.slice(a, b));
}

describe("BlockSearchIndex: keeping the index up to date", () => {
	it("indexes the runnable blocks of a note (http, db, …) and skips other fences", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		expect(blocksOf(index).map((e) => [e.blockType, e.line])).toEqual([
			["http", 2],
			["http", 9],
			["db", 20],
		]);
		expect(index.size).toBe(3);
	});

	it("reads the alias from the alias token or from a `# @name` directive", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		index.updateFile("Auth.md", auth);
		expect(blocksOf(index).map((e) => e.alias)).toEqual([undefined, "login", "books", "titles"]);
	});

	it("takes the uppercase method and the URL as written, references and query continuations included", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		const [login, books] = blocksOf(index);
		expect([login.method, login.url]).toEqual(["POST", "{{base_url}}/login"]);
		expect([books.method, books.url]).toEqual(["GET", "{{base_url}}/books?page=2&size=10"]);
	});

	it("reads a bare URL line as GET", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Auth.md", auth);
		expect(blocksOf(index)[0]).toEqual({
			kind: "block",
			path: "Auth.md",
			line: 0,
			method: "GET",
			url: "https://auth.example.com/token",
			blockType: "http",
		});
	});

	it("gives other blocks no method and their first non-empty line as URL", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		const db = blocksOf(index)[2];
		expect([db.method, db.url]).toEqual(["", "SELECT title FROM books;"]);
	});

	it("still lists a block with an error, so that it can be found and fixed", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Broken.md", "```http timeout=abc\nFETCH /x\n```\n```http\n```\n");
		expect(blocksOf(index).map((e) => [e.method, e.url])).toEqual([
			["FETCH", "/x"],
			["", ""],
		]);
	});

	it("finds fences inside callouts and list items, at the line of their opening fence", () => {
		const md = ["> [!note] Requests", "> ```http alias=quoted", "> GET /in-callout", "> ```", "", "- item", "  ```http", "  DELETE /in-list", "  ```"].join("\n");
		const index = new BlockSearchIndex();
		index.updateFile("Nested.md", md);
		expect(blocksOf(index).map((e) => [e.line, e.method, e.url, e.alias])).toEqual([
			[1, "GET", "/in-callout", "quoted"],
			[6, "DELETE", "/in-list", undefined],
		]);
	});

	it("replaces a note's entries when the note changes", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		index.updateFile("Bookshop.md", "```http alias=only\nGET /only\n```\n");
		expect(blocksOf(index).map((e) => e.alias)).toEqual(["only"]);
		expect(index.size).toBe(1);
	});

	it("forgets a note that no longer has runnable blocks", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		index.updateFile("Bookshop.md", "# Just prose now\n");
		expect(index.size).toBe(0);
	});

	it("parses only the text it is given and leaves other notes' entries untouched", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		index.updateFile("Auth.md", auth);
		const before = blocksOf(index, "Bookshop.md");
		const parse = jest.spyOn(noteModule, "parseNote");
		try {
			index.updateFile("Auth.md", "```http alias=renewed\nPOST /token\n```\n");
			expect(parse).toHaveBeenCalledTimes(1);
			expect(parse).toHaveBeenCalledWith("```http alias=renewed\nPOST /token\n```\n");
			const after = blocksOf(index, "Bookshop.md");
			expect(after).toHaveLength(3);
			after.forEach((e, k) => expect(e).toBe(before[k]));
		} finally {
			parse.mockRestore();
		}
	});

	it("never parses a note while searching", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		const parse = jest.spyOn(noteModule, "parseNote");
		try {
			for (const q of ["", "l", "lo", "log", "login", "books get"]) index.search(q);
			expect(parse).not.toHaveBeenCalled();
		} finally {
			parse.mockRestore();
		}
	});

	it("does not grow when the same note is updated many times", () => {
		const note = Array.from({ length: 20 }, (_, k) => `\`\`\`http alias=b${k}\nGET /items/${k}\n\`\`\`\n`).join("\n");
		const index = new BlockSearchIndex();
		for (let k = 0; k < 1000; k++) index.updateFile("Many.md", note);
		expect(index.size).toBe(20);
		expect(index.search("b19")[0].entry).toMatchObject({ alias: "b19", url: "/items/19" });
	});

	it("removes a deleted note and ignores an unknown path", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		index.updateFile("Auth.md", auth);
		index.removeFile("Bookshop.md");
		index.removeFile("Nowhere.md");
		expect(blocksOf(index).map((e) => e.path)).toEqual(["Auth.md"]);
	});

	it("moves a renamed note's entries to the new path and note name, without re-parsing", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		const parse = jest.spyOn(noteModule, "parseNote");
		try {
			index.renameFile("Bookshop.md", "archive/Old shop.md");
			expect(parse).not.toHaveBeenCalled();
		} finally {
			parse.mockRestore();
		}
		expect(blocksOf(index, "Bookshop.md")).toEqual([]);
		expect(blocksOf(index, "archive/Old shop.md").map((e) => e.line)).toEqual([2, 9, 20]);
		expect(index.search("old shop")[0].entry).toMatchObject({ path: "archive/Old shop.md" });
		expect(index.search("").every((r) => !displayText(r.entry).endsWith("· Bookshop"))).toBe(true);
	});

	it("ignores a rename of a note it does not know", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Auth.md", auth);
		index.renameFile("Other.md", "Auth.md");
		expect(blocksOf(index).map((e) => e.path)).toEqual(["Auth.md"]);
	});
});

describe("BlockSearchIndex.displayText", () => {
	it("is also available on the index", () => {
		const entry: VariableEntry = { kind: "variable", environment: "dev", name: "x", secret: false };
		expect(new BlockSearchIndex().displayText(entry)).toBe(displayText(entry));
	});
});

describe("BlockSearchIndex.search", () => {
	function vaultIndex(): BlockSearchIndex {
		const index = new BlockSearchIndex();
		index.updateFile("Bookshop.md", bookshop);
		index.updateFile("Auth.md", auth);
		index.updateFile("History.md", "```http\nGET {{base_url}}/login-history\n```\n```http alias=lg\nGET /l/o/g/i/n\n```\n");
		index.setVariables([
			{ kind: "variable", environment: "dev", name: "base_url", secret: false },
			{ kind: "variable", environment: "dev", name: "token", secret: true },
			{ kind: "variable", environment: "prod", name: "base_url", secret: false },
		]);
		return index;
	}

	it("lists every entry for an empty query: blocks by note path then line, then variables", () => {
		const results = vaultIndex().search("");
		expect(results.map((r) => (r.entry.kind === "block" ? `${r.entry.path}:${r.entry.line}` : r.entry.kind === "variable" ? `${r.entry.environment}/${r.entry.name}` : r.entry.table))).toEqual([
			"Auth.md:0",
			"Bookshop.md:2",
			"Bookshop.md:9",
			"Bookshop.md:20",
			"History.md:0",
			"History.md:3",
			"dev/base_url",
			"dev/token",
			"prod/base_url",
		]);
		expect(results.every((r) => r.score === 0 && r.matches.length === 0)).toBe(true);
	});

	it("ranks the block whose alias is the query above URL and subsequence matches", () => {
		const results = vaultIndex().search("login");
		expect(results[0].entry).toMatchObject({ alias: "login", path: "Bookshop.md" });
		expect(highlighted(results[0].entry, results[0].matches)).toEqual(["login"]);
		const rest = results.slice(1).map((r) => (r.entry as BlockEntry).url);
		expect(rest.indexOf("{{base_url}}/login-history")).toBeLessThan(rest.indexOf("/l/o/g/i/n"));
	});

	it("ranks an alias prefix above a scattered match", () => {
		const results = vaultIndex().search("tit");
		expect(results[0].entry).toMatchObject({ alias: "titles", blockType: "db" });
	});

	it("searches methods, URLs (with their references) and note names", () => {
		const index = vaultIndex();
		expect(index.search("post").map((r) => (r.entry as BlockEntry).url)[0]).toBe("{{base_url}}/login");
		expect(index.search("page=2")[0].entry).toMatchObject({ alias: "books" });
		expect(index.search("{{base_url}}/books")[0].entry).toMatchObject({ alias: "books" });
		expect(index.search("auth token")[0].entry).toMatchObject({ path: "Auth.md", url: "https://auth.example.com/token" });
	});

	it("requires every word of the query to match the same entry", () => {
		const results = vaultIndex().search("get books");
		expect(results.map((r) => (r.entry as BlockEntry).alias)).toEqual(["books"]);
	});

	it("finds variables of every environment by name and environment", () => {
		const index = vaultIndex();
		expect(index.search("base_url").filter((r) => r.entry.kind === "variable").map((r) => (r.entry as VariableEntry).environment)).toEqual(["dev", "prod"]);
		expect(index.search("base prod")[0].entry).toEqual({ kind: "variable", environment: "prod", name: "base_url", secret: false });
		expect(index.search("secret").map((r) => r.entry)).toEqual([{ kind: "variable", environment: "dev", name: "token", secret: true }]);
	});

	it("replaces the variables on every setVariables", () => {
		const index = vaultIndex();
		index.setVariables([{ kind: "variable", environment: "staging", name: "api_key", secret: true }]);
		expect(index.search("").filter((r) => r.entry.kind === "variable").map((r) => r.entry)).toEqual([
			{ kind: "variable", environment: "staging", name: "api_key", secret: true },
		]);
		expect(index.size).toBe(7);
	});

	it("returns at most `limit` results, 50 by default", () => {
		const index = new BlockSearchIndex();
		index.updateFile("Many.md", Array.from({ length: 60 }, (_, k) => `\`\`\`http\nGET /items/${k}\n\`\`\`\n`).join(""));
		expect(index.search("")).toHaveLength(50);
		expect(index.search("items", 5)).toHaveLength(5);
		expect(index.search("items", 0)).toEqual([]);
	});

	it("keeps the stable order between equally good matches", () => {
		const index = new BlockSearchIndex();
		index.updateFile("b.md", "```http\nGET /same\n```\n");
		index.updateFile("a.md", "```http\nGET /same\n```\n");
		expect(index.search("same").map((r) => (r.entry as BlockEntry).path)).toEqual(["a.md", "b.md"]);
	});

	it("gives match ranges in the entry's display text", () => {
		const [top] = vaultIndex().search("get books");
		expect(displayText(top.entry)).toBe("GET {{base_url}}/books?page=2&size=10 · books · Bookshop");
		expect(highlighted(top.entry, top.matches)).toEqual(["GET", "books"]);
	});
});

describe("BlockSearchIndex.search while typing", () => {
	const fc = jest.requireActual<typeof import("fast-check")>("fast-check");
	const vault = (index: BlockSearchIndex) => {
		for (let n = 0; n < 30; n++) {
			const blocks = Array.from({ length: 4 }, (_, i) => `\`\`\`http alias=svc${n}_op${i}\n${["GET", "POST"][i % 2]} {{base_url}}/services/${n}/items/${i}\n\`\`\``);
			index.updateFile(`services/Service ${n}.md`, blocks.join("\n\n"));
		}
		index.setVariables([
			{ kind: "variable", environment: "dev", name: "base_url", secret: false },
			{ kind: "variable", environment: "prod", name: "service_token", secret: true },
		]);
	};
	const plain = (rs: ReturnType<BlockSearchIndex["search"]>) => rs.map((r) => [displayText(r.entry), r.score, r.matches]);

	it("ranks by the same score fuzzyScore gives (the fast ranking agrees with the full alignment)", () => {
		const index = new BlockSearchIndex();
		const word = fc.stringMatching(/^[a-z_]{1,8}$/);
		fc.assert(
			fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), word, (names, query) => {
				index.setVariables(names.map((name): VariableEntry => ({ kind: "variable", environment: "e", name, secret: false })));
				for (const r of index.search(query, 100)) expect(r.score).toBeCloseTo(fuzzyScore(query, displayText(r.entry))?.score ?? NaN, 9);
			}),
		);
	});

	it("gives the same results typed key by key (narrowing), backspaced, or asked of a fresh index", () => {
		const typed = new BlockSearchIndex();
		vault(typed);
		const keys = ["s", "sv", "svc", "svc1", "svc1 ", "svc1 op", "svc1 op3", "svc1 op", "svc", "se to", "post 2"];
		for (const q of keys) {
			const fresh = new BlockSearchIndex();
			vault(fresh);
			expect([q, plain(typed.search(q))]).toEqual([q, plain(fresh.search(q))]);
		}
	});

	it("gives, in order, what the definition gives: every entry scored by fuzzyScore plus the alias bonus, best first, stable among equals", () => {
		// The definition, entry by entry with no narrowing, pooling or partial ranking: the fast path must agree exactly.
		const expected = (index: BlockSearchIndex, query: string, limit: number) => {
			const words = queryWords(query);
			const scored = index.entries().flatMap((entry) => {
				const d = displayOf(entry);
				const m = fuzzyScore(query, d.text, d.alias ? { boost: [d.alias] } : {});
				if (!m) return [];
				const alias = entry.kind === "block" && entry.alias ? entry.alias.toLowerCase() : null;
				const bonus = alias === null ? 0 : words.reduce((sum, w) => sum + (w === alias ? 200 : alias.startsWith(w) ? 60 : 0), 0);
				return [{ entry, score: m.score + bonus, matches: m.matches }];
			});
			return plain(scored.sort((a, b) => b.score - a.score).slice(0, limit));
		};
		const index = new BlockSearchIndex();
		vault(index);
		// Keystrokes as typed into Mod+K: characters and backspaces ("<").
		const keys = fc.array(fc.constantFrom(..."svc1 op23_getu/{}<<"), { minLength: 1, maxLength: 12 });
		fc.assert(
			fc.property(keys, fc.constantFrom(3, 50, 1000), (typed, limit) => {
				index.search("", limit);
				let q = "";
				for (const key of typed) {
					q = key === "<" ? q.slice(0, -1) : q + key;
					expect([q, plain(index.search(q, limit))]).toEqual([q, expected(index, q, limit)]);
				}
			}),
			{ numRuns: 60 },
		);
	});

	it("searches an entry too long for 16-bit positions among short ones (the packed texts widen)", () => {
		const index = new BlockSearchIndex();
		vault(index);
		index.updateFile("long.md", "```db alias=huge\nSELECT " + "x, ".repeat(25_000) + "zq FROM t\n```");
		const [top] = index.search("zq");
		expect(displayText(top.entry).slice(...top.matches[0])).toBe("zq");
		expect(top.matches[0][0]).toBeGreaterThan(75_000);
		expect(index.search("svc1_op3")[0].entry).toMatchObject({ alias: "svc1_op3" });
	});

	it("forgets the narrowing when the index changes", () => {
		const index = new BlockSearchIndex();
		vault(index);
		expect(index.search("zzz")).toEqual([]);
		index.updateFile("new.md", "```http alias=zzz_new\nGET /z\n```");
		expect(index.search("zzz").map((r) => displayText(r.entry))).toEqual(["GET /z · zzz_new · new"]);
	});
});
