import { parseNote, pinnedFenceOf, writePin, type HttpNoteBlock } from "../../../src/blocks";

const httpBlock = (text: string, alias = "users"): HttpNoteBlock => {
	const block = parseNote(text).find((b) => b.kind === "http" && b.alias === alias);
	if (!block || block.kind !== "http") throw new Error(`no http block ${alias}`);
	return block;
};

/** Writes `content` as the pin of `alias` in `text`, or fails the test with the reason. */
const pin = (text: string, content: string, alias = "users"): string => {
	const written = writePin(text, httpBlock(text, alias), content);
	if (!written.ok) throw new Error(written.reason);
	return written.text;
};

const BEFORE = "# Users\n\nSome text.\n\n";
const BLOCK = "```http alias=users pin\nGET http://127.0.0.1/users\n```\n";
const AFTER = "\nMore text.\n\n```http alias=other\nGET http://127.0.0.1/other\n```\n";

describe("writing a block's pin into its note", () => {
	it("puts a new pin right under the block, named by its alias", () => {
		expect(pin(BEFORE + BLOCK + AFTER, "HTTP/1.1 200 OK\n\nhi")).toBe(BEFORE + "```http alias=users pin\nGET http://127.0.0.1/users\n```\n```http-response alias=users\nHTTP/1.1 200 OK\n\nhi\n```\n" + AFTER);
	});

	it.each([
		["LF", "\n"],
		["CRLF", "\r\n"],
	])("rewrites one fence, never appends, and leaves every other byte of a %s note as it was after ten rewrites", (_, eol) => {
		const note = (BEFORE + BLOCK + AFTER).replace(/\n/g, eol);
		let text = pin(note, "HTTP/1.1 200 OK\n\n0");
		const first = pinnedFenceOf(text, httpBlock(text))!;
		const around = [text.slice(0, first.from), text.slice(first.to)];
		for (let k = 1; k <= 10; k++) text = pin(text, `HTTP/1.1 200 OK\ncontent-type: text/plain\n\n${"line\n".repeat(k)}${k}`);
		const last = pinnedFenceOf(text, httpBlock(text))!;
		expect([text.slice(0, last.from), text.slice(last.to)]).toEqual(around);
		expect(text.match(/http-response/g)).toHaveLength(1);
		expect(last.content).toBe(`HTTP/1.1 200 OK${eol}content-type: text/plain${eol}${eol}${`line${eol}`.repeat(10)}10`);
		// The pin's own line breaks are the note's.
		expect(text.slice(last.from, last.to).replace(/\r\n/g, "")).not.toContain("\r");
		expect(text.slice(last.from, last.to).split(eol)).toHaveLength(16);
	});

	it("keeps the pin's fence line as written (its options) and the blank lines above it", () => {
		const text = BEFORE + BLOCK + "\n```http-response alias=users headers=* cut=1k\nHTTP/1.1 500\n```\n" + AFTER;
		expect(pin(text, "HTTP/1.1 200 OK")).toBe(BEFORE + BLOCK + "\n```http-response alias=users headers=* cut=1k\nHTTP/1.1 200 OK\n```\n" + AFTER);
	});

	it("writes a fence longer than any backtick run in the body, so the body cannot close it", () => {
		const text = pin(BLOCK, "HTTP/1.1 200 OK\n\n````md\n```\n````");
		expect(text).toContain("`````http-response alias=users\n");
		expect(parseNote(text).map((b) => b.kind)).toEqual(["http", "http-response"]);
		expect(pin(text, "HTTP/1.1 200 OK")).toBe(BLOCK.replace(/\n$/, "") + "\n```http-response alias=users\nHTTP/1.1 200 OK\n```\n");
	});

	it("writes the pin inside the block's callout or list item", () => {
		const quoted = "> [!example]\n> ```http alias=users\n> GET http://x\n> ```\n\nafter\n";
		expect(pin(quoted, "HTTP/1.1 200 OK\n\nhi")).toBe("> [!example]\n> ```http alias=users\n> GET http://x\n> ```\n> ```http-response alias=users\n> HTTP/1.1 200 OK\n> \n> hi\n> ```\n\nafter\n");
		const listed = "- item\n  ```http alias=users\n  GET http://x\n  ```\n";
		const once = pin(listed, "HTTP/1.1 200 OK");
		expect(once).toBe("- item\n  ```http alias=users\n  GET http://x\n  ```\n  ```http-response alias=users\n  HTTP/1.1 200 OK\n  ```\n");
		expect(pin(once, "HTTP/1.1 201")).toBe(once.replace("200 OK", "201"));
	});

	it("puts a pin at the end of a note that has no final line break", () => {
		expect(pin("```http alias=users\nGET http://x\n```", "HTTP/1.1 200 OK")).toBe("```http alias=users\nGET http://x\n```\n```http-response alias=users\nHTTP/1.1 200 OK\n```");
	});

	it.each([
		["another alias", "```http-response alias=other\nHTTP/1.1 500\n```\n"],
		["text in between", "text\n```http-response alias=users\nHTTP/1.1 500\n```\n"],
		["another kind of fence", "```json\n{}\n```\n"],
	])("leaves a fence under the block alone when it is not its pin (%s) and writes a new one", (_, below) => {
		const text = BLOCK + below;
		expect(pin(text, "HTTP/1.1 200 OK")).toBe(BLOCK + "```http-response alias=users\nHTTP/1.1 200 OK\n```\n" + below);
	});

	it("refuses a block without an alias, naming the fix", () => {
		const text = "```http\nGET http://x\n```\n";
		const block = parseNote(text)[0] as HttpNoteBlock;
		expect(writePin(text, block, "HTTP/1.1 200")).toMatchObject({ ok: false, reason: /add alias=<name>/ });
	});

	it("refuses an unclosed pin rather than guess where it ends (nothing below it is lost)", () => {
		const text = BLOCK + "```http-response alias=users\nHTTP/1.1 500\n\nMy notes, which the open fence swallows.\n";
		expect(writePin(text, httpBlock(text), "HTTP/1.1 200")).toMatchObject({ ok: false, reason: /not closed/ });
	});
});
