import { scanFences, scanRunnableFences } from "../../../src/blocks";

describe("scanFences: finding fenced code blocks in a note", () => {
	it("finds a backtick http fence with exact lines and offsets", () => {
		const md = "# Title\n\n```http alias=a\nGET https://example.com\n```\ntext\n";
		const [f] = scanFences(md);
		expect(f.lang).toBe("http");
		expect(f.info).toBe("alias=a");
		expect(f.startLine).toBe(2);
		expect(f.endLine).toBe(4);
		expect(md.slice(f.from, f.to)).toBe("```http alias=a\nGET https://example.com\n```");
		expect(f.content).toBe("GET https://example.com");
		expect(f.terminated).toBe(true);
		expect(md.slice(f.contentOffsets[0], f.contentOffsets[0] + 3)).toBe("GET");
	});

	it.each([
		["tilde fence", "~~~http\nGET /a\n~~~\n", "~", 3],
		["long backtick fence", "`````http\nGET /a\n`````\n", "`", 5],
		["long tilde fence", "~~~~~~http\nGET /a\n~~~~~~\n", "~", 6],
		["closing fence longer than the opening", "```http\nGET /a\n``````\n", "`", 3],
		["language in capitals", "```HTTP\nGET /a\n```\n", "`", 3],
	])("%s", (_name, md, char, length) => {
		const fences = scanRunnableFences(md);
		expect(fences).toHaveLength(1);
		expect(fences[0].char).toBe(char);
		expect(fences[0].length).toBe(length);
		expect(fences[0].content).toBe("GET /a");
		expect(fences[0].lang).toBe("http");
	});

	it("does not close a backtick fence with tildes or a shorter run", () => {
		const md = "````http\nGET /a\n```\n~~~~\n````\n";
		const [f] = scanFences(md);
		expect(f.contentLines).toEqual(["GET /a", "```", "~~~~"]);
		expect(f.endLine).toBe(4);
	});

	it("treats a fence nested in a longer fence as content", () => {
		const md = "````markdown\n```http\nGET /inner\n```\n````\n```http\nGET /outer\n```\n";
		const runnable = scanRunnableFences(md);
		expect(runnable).toHaveLength(1);
		expect(runnable[0].content).toBe("GET /outer");
		expect(scanFences(md)[0].contentLines).toEqual(["```http", "GET /inner", "```"]);
	});

	it("runs an unterminated fence to the end of the document", () => {
		const md = "intro\n```http\nGET /a\nAccept: */*";
		const [f] = scanFences(md);
		expect(f.terminated).toBe(false);
		expect(f.endLine).toBe(3);
		expect(f.content).toBe("GET /a\nAccept: */*");
		expect(f.to).toBe(md.length);
	});

	it("reads an indented fence inside a list item and strips the indentation", () => {
		const md = "- step one\n  ```http\n  GET /a\n    ?x=1\n  ```\n";
		const [f] = scanFences(md);
		expect(f.prefix).toBe("  ");
		expect(f.contentLines).toEqual(["GET /a", "  ?x=1"]);
		expect(f.terminated).toBe(true);
	});

	it("reads a fence that opens on the list marker line", () => {
		const md = "1. ```http\n   GET /a\n   ```\n";
		const [f] = scanFences(md);
		expect(f.prefix).toBe("1. ");
		expect(f.contentPrefix).toBe("   ");
		expect(f.content).toBe("GET /a");
		expect(f.terminated).toBe(true);
	});

	it("reads a fence inside a callout, stripping the quote markers", () => {
		const md = "> [!note] Try it\n> ```http\n> GET /a\n> Accept: */*\n> ```\n";
		const [f] = scanFences(md);
		expect(f.prefix).toBe("> ");
		expect(f.contentLines).toEqual(["GET /a", "Accept: */*"]);
		expect(f.terminated).toBe(true);
		expect(md.slice(f.contentOffsets[0], f.contentOffsets[0] + 6)).toBe("GET /a");
	});

	it("ends a callout fence when the callout ends", () => {
		const md = "> ```http\n> GET /a\nplain text\n";
		const [f] = scanFences(md);
		expect(f.terminated).toBe(false);
		expect(f.endLine).toBe(1);
		expect(f.content).toBe("GET /a");
	});

	it("reads nested quotes", () => {
		const md = "> > ```http\n> > GET /a\n> > ```\n";
		const [f] = scanFences(md);
		expect(f.content).toBe("GET /a");
		expect(f.terminated).toBe(true);
	});

	it("keeps CRLF line breaks in the content and out of the lines", () => {
		const md = "```http\r\nGET /a\r\nAccept: */*\r\n```\r\n";
		const [f] = scanFences(md);
		expect(f.contentLines).toEqual(["GET /a", "Accept: */*"]);
		expect(f.content).toBe("GET /a\r\nAccept: */*");
		expect(md.slice(f.from, f.to)).toBe("```http\r\nGET /a\r\nAccept: */*\r\n```");
	});

	it("skips a byte order mark before a fence on the first line", () => {
		const md = "\uFEFF```http\nGET /a\n```";
		const [f] = scanFences(md);
		expect(f.lang).toBe("http");
		expect(f.from).toBe(1);
	});

	it("ignores backtick fences whose info string contains a backtick (inline code)", () => {
		expect(scanRunnableFences("```http `x`\nGET /a\n```\n")).toEqual([]);
		expect(scanFences("``` `code` ```\n")).toHaveLength(0);
	});

	it("accepts tabs between the language and the info string", () => {
		const [f] = scanFences("```http\talias=a\nGET /a\n```");
		expect(f.lang).toBe("http");
		expect(f.info).toBe("alias=a");
	});

	it("lists only http, db and textdiff fences as runnable", () => {
		const md = "```js\nx\n```\n```db connection=app\nselect 1\n```\n```textdiff\na\n```\n```mermaid\ngraph\n```\n";
		expect(scanRunnableFences(md).map((f) => f.lang)).toEqual(["db", "textdiff"]);
	});

	it("finds nothing in a note without fences, or an empty note", () => {
		expect(scanFences("just text\n")).toEqual([]);
		expect(scanFences("")).toEqual([]);
	});
});
