import { httpFileToNote, parseNote } from "../../../src/blocks";

const FILE = [
	"@host = http://127.0.0.1:1",
	"@token = abc",
	"",
	"### Get a book",
	"# Fetches one book by id.",
	"GET {{host}}/books/1",
	"Authorization: Bearer {{token}}",
	"",
	"### Create",
	"# @name create",
	"POST {{host}}/books",
	"Content-Type: application/json",
	"",
	'{"title": "Dune"}',
	"",
	'> {% client.global.set("id", response.body.id) %}',
	"",
].join("\r\n");

describe("httpFileToNote", () => {
	const note = httpFileToNote(FILE, "books");

	it("writes one fence per request, variables in their own fence, comments as text, ### titles as headings", () => {
		expect(note).toBe(
			[
				"# books",
				"```http\n@host = http://127.0.0.1:1\n@token = abc\n```",
				"## Get a book",
				"Fetches one book by id.",
				"```http\nGET {{host}}/books/1\nAuthorization: Bearer {{token}}\n```",
				"## Create",
				'```http\n# @name create\nPOST {{host}}/books\nContent-Type: application/json\n\n{"title": "Dune"}\n\n> {% client.global.set("id", response.body.id) %}\n```',
			].join("\n\n") + "\n",
		);
	});

	it("reads back as the same requests: variables apply below, the alias from # @name, the handler kept and not sent", () => {
		const blocks = parseNote(note);
		expect(blocks.map((b) => b.kind)).toEqual(["http", "http", "http"]);
		const [, get, create] = blocks;
		expect(get.kind === "http" && [get.http.method, get.http.url]).toEqual(["GET", "{{host}}/books/1"]);
		expect(create.alias).toBe("create");
		expect(create.kind === "http" && create.http.body).toBe('{"title": "Dune"}');
		expect(create.problems.map((p) => p.code)).toEqual(["script_not_run"]);
	});

	it("fences a body holding ``` with a longer fence", () => {
		const out = httpFileToNote("POST http://x/a\n\n```\ncode\n```", "f");
		expect(out).toContain("````http\nPOST http://x/a\n\n```\ncode\n```\n````");
		expect(parseNote(out)).toHaveLength(1);
	});
});
