import { parseNote } from "../../../src/blocks";
import { blocksOfFile, importLabel, importTarget, noteImports } from "../../../src/blocks/imports";

const fence = (...lines: string[]) => ["```http", ...lines, "```"].join("\n");

describe("# @import: the directive", () => {
	it("is read in any http block's head, # or //, in note order, with its line and column", () => {
		const note = parseNote(["Intro", fence("# @import ./Auth.http", "GET http://x/a"), "", fence("// @import   ../shared/Ids  ", "# @name b", "GET http://x/b")].join("\n"));
		expect(noteImports(note)).toEqual([
			{ written: "./Auth.http", line: 2, column: 2 },
			{ written: "../shared/Ids", line: 7, column: 3 },
		]);
	});

	it("keeps the column of a fence inside a callout", () => {
		const note = parseNote(["> ```http", "> # @import ./Auth.md", "> GET http://x", "> ```"].join("\n"));
		expect(noteImports(note)).toEqual([{ written: "./Auth.md", line: 1, column: 4 }]);
	});

	it.each([
		["a body line", fence("POST http://x", "", "# @import ./Auth.http")],
		["another directive", fence("# @important ./Auth.http", "GET http://x")],
		["a db block", ["```db", "-- # @import ./Auth.http", "SELECT 1", "```"].join("\n")],
	])("is not %s", (_, text) => expect(noteImports(parseNote(text))).toEqual([]));

	it("with no path is still a directive, so the run can say what is missing", () => {
		const [d] = noteImports(parseNote(fence("# @import", "GET http://x")));
		expect(d.written).toBe("");
		expect(importTarget(d.written, "n.md")).toEqual({ ok: false, why: "it names no file: write # @import ./other.http" });
	});

	it("is named in messages by its line and column, 1-based", () => {
		expect(importLabel({ written: "./Auth.http", line: 2, column: 2 })).toBe("line 3, column 3: @import ./Auth.http");
	});
});

describe("# @import: the file it names, from the importing note's folder", () => {
	it.each([
		["./Auth.http", "APIs/Orders.md", "APIs/Auth.http"],
		["Auth.rest", "APIs/Orders.md", "APIs/Auth.rest"],
		["../shared/Auth.md", "APIs/v2/Orders.md", "APIs/shared/Auth.md"],
		["./Auth", "APIs/Orders.md", "APIs/Auth.md"],
		["'./My Auth.http'", "Orders.md", "My Auth.http"],
		["./Auth.http", "/home/u/notes/Orders.md", "/home/u/notes/Auth.http"],
	])("%s from %s is %s", (written, from, path) => {
		const quoted = /^'(.*)'$/.exec(written);
		const [d] = noteImports(parseNote(fence(`# @import ${written}`, "GET http://x")));
		expect(d.written).toBe(quoted ? quoted[1] : written);
		expect(importTarget(d.written, from)).toEqual({ ok: true, path });
	});

	it.each([
		["../../Auth.http", "APIs/Orders.md", `"../../Auth.http" leads outside the vault`],
		["./auth.txt", "Orders.md", `"./auth.txt" is not a note (.md) or a .http/.rest file`],
	])("%s from %s names nothing", (written, from, why) => expect(importTarget(written, from)).toEqual({ ok: false, why }));
});

describe("# @import: the blocks of the file", () => {
	it("reads a .http file as the import command does: one block per ### request, file variables before them", () => {
		const blocks = blocksOfFile("APIs/auth.http", ["@user = ada", "", "### Log in", "# @name login", "POST http://x/login?u={{user}}", "", "###", "GET http://x/me"].join("\n"));
		expect(blocks.map((b) => [b.alias, b.kind === "http" ? b.http.method : null])).toEqual([
			[null, null],
			["login", "POST"],
			[null, "GET"],
		]);
	});

	it("reads a note as a note", () => {
		expect(blocksOfFile("Auth.md", fence("# @name login", "GET http://x")).map((b) => b.alias)).toEqual(["login"]);
	});
});
