import { applyChange, canonicalizeFenceLine, editableRequest, parseNote, replaceContent, setInfoToken, setMethod, writeCanonicalRequest, type HttpNoteBlock } from "../../../src/blocks";

const apply = (md: string, change: ReturnType<typeof setMethod>) => (change ? applyChange(md, change) : md);

describe("edits computed as text changes", () => {
	it("sets a token in canonical order on the fence line only", () => {
		const md = "x\n```http foo display=output\nGET http://a\n```\n";
		const [b] = parseNote(md);
		if (b.kind !== "http") throw new Error("expected an http block");
		expect(applyChange(md, setInfoToken(md, b, "mode", "form"))).toBe("x\n```http display=output mode=form foo\nGET http://a\n```\n");
		expect(applyChange(md, setInfoToken(md, b, "display", null))).toBe("x\n```http foo\nGET http://a\n```\n");
	});

	it("keeps the fence's container prefix and CRLF", () => {
		const md = "> ```http mode=form alias=a\r\n> GET http://a\r\n> ```\r\n";
		const b = parseNote(md)[0] as HttpNoteBlock;
		expect(applyChange(md, setInfoToken(md, b, "mode", "raw"))).toBe("> ```http alias=a mode=raw\r\n> GET http://a\r\n> ```\r\n");
	});

	it("offers the canonical rewrite only when needed and valid", () => {
		const md = "```http mode=form alias=a\nGET http://a\n```";
		const [b] = parseNote(md);
		expect(apply(md, canonicalizeFenceLine(md, b))).toBe("```http alias=a mode=form\nGET http://a\n```");
		const [canonical] = parseNote("```http alias=a mode=form\nGET /\n```");
		expect(canonicalizeFenceLine("```http alias=a mode=form\nGET /\n```", canonical)).toBeNull();
		const bad = "```http display=wide alias=a\nGET /\n```";
		expect(canonicalizeFenceLine(bad, parseNote(bad)[0])).toBeNull();
	});

	it.each([
		["```http\nget http://a\n```", "POST", "```http\nPOST http://a\n```"],
		["```http\n  GET http://a\n```", "DELETE", "```http\n  DELETE http://a\n```"],
		["```http\nhttp://a\n```", "PUT", "```http\nPUT http://a\n```"],
		["- ```http\n  # c\n  options http://a\n  ```", "HEAD", "- ```http\n  # c\n  HEAD http://a\n  ```"],
	])("sets the method of %j to %s", (md, method, expected) => {
		const [b] = parseNote(md);
		expect(apply(md, setMethod(md, b, method as "GET"))).toBe(expected);
	});

	it("writes a form edit as canonical text inside a callout, round-tripping", () => {
		const md = "> [!tip]\n> ```http mode=form\n> post http://a/b\n> content-type:application/json\n>\n> {}\n> ```\nafter";
		const [b] = parseNote(md);
		const req = editableRequest(b);
		if (!req) throw new Error("no request");
		req.headers.push(["X-Y", "1"]);
		req.body = '{\n  "a": 1\n}';
		const out = applyChange(md, writeCanonicalRequest(md, b, req));
		expect(out).toBe('> [!tip]\n> ```http mode=form\n> POST http://a/b\n> content-type: application/json\n> X-Y: 1\n>\n> {\n>   "a": 1\n> }\n> ```\nafter');
		const [again] = parseNote(out);
		if (again.kind !== "http") throw new Error(`expected an http block, got ${again.kind}`);
		expect(again.http.headers.map((h) => [h.name, h.value])).toEqual(req.headers);
		expect(again.http.body).toBe(req.body);
	});

	it("fills an empty block", () => {
		const md = "```http\n```\n";
		const [b] = parseNote(md);
		expect(applyChange(md, replaceContent(md, b, "GET http://a"))).toBe("```http\nGET http://a\n```\n");
	});
});
