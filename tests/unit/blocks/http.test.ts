import {
	HTTP_METHODS,
	SCRIPT_NOT_RUN,
	lineBreakOf,
	parseHttpBlock,
	parseRequestLine,
	serializeCanonical,
	serializeHttpBlock,
	toCanonicalRequest,
} from "../../../src/blocks";

describe("request line", () => {
	it.each(HTTP_METHODS.map((m) => [m]))("accepts %s", (m) => {
		expect(parseRequestLine(`${m} https://x.test/a`)).toMatchObject({ method: m, url: "https://x.test/a", problem: null });
	});

	it.each([
		["get https://x.test", "GET", "get"],
		["Post https://x.test", "POST", "Post"],
		["options *", "OPTIONS", "options"],
	])("takes the case-insensitive method of %j", (line, method, written) => {
		expect(parseRequestLine(line)).toMatchObject({ method, methodWritten: written });
	});

	it.each([
		["https://x.test/a", "https://x.test/a"],
		["{{base_url}}/books", "{{base_url}}/books"],
		["/relative", "/relative"],
		["localhost:8080/x", "localhost:8080/x"],
		["https://x.test HTTP/1.1", "https://x.test"],
	])("reads the bare URL line %j as GET", (line, url) => {
		expect(parseRequestLine(line)).toMatchObject({ method: "GET", methodWritten: null, url, problem: null });
	});

	it("reads the HTTP version", () => {
		expect(parseRequestLine("POST https://x.test/a b HTTP/2")).toMatchObject({ url: "https://x.test/a b", httpVersion: "HTTP/2" });
	});

	it.each([["TRACE /"], ["CONNECT x.test:443"], ["propfind /dav"], ["VERSION-CONTROL /v"], ["GraphQL /graphql"]])("accepts the extra method of %j (TRACE, CONNECT, WebDAV, GRAPHQL), written uppercase", (line) => {
		const r = parseRequestLine(line);
		expect(r).toMatchObject({ method: line.split(" ")[0].toUpperCase(), problem: null });
	});

	it.each([["FETCH https://x.test"], ["BREW /pot"]])("rejects the unknown method in %j naming the allowed ones", (line) => {
		const r = parseRequestLine(line);
		expect(r.code).toBe("unknown_method");
		expect(r.problem).toContain("GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS");
	});

	it.each([["G@T http://x.test/a"], ["GET, http://x"], ["P0ST https://x.test"], ["*GET {{base_url}}/a"], ["get! /a"]])(
		"rejects the invalid method token of %j instead of reading the line as a URL",
		(line) => {
			const r = parseRequestLine(line);
			expect(r).toMatchObject({ method: null, code: "invalid_method" });
			expect(r.problem).toMatch(/^Invalid method ".+": use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS$/);
		},
	);

	it.each([["GET"], ["delete   "]])("rejects %j without a URL", (line) => {
		expect(parseRequestLine(line).code).toBe("missing_url");
	});
});

describe("parseHttpBlock", () => {
	it("reads the request line alone as a complete block", () => {
		const b = parseHttpBlock("GET https://x.test");
		expect(b).toMatchObject({ method: "GET", url: "https://x.test", headers: [], body: "", problems: [] });
	});

	it("reads headers, the empty line and the body exactly", () => {
		const text = 'POST https://x.test/books\nContent-Type: application/json\nX-Trace:  a:b:c  \n\n{\n  "title": "Dune"\n}';
		const b = parseHttpBlock(text);
		expect(b.headers.map((h) => [h.name, h.value])).toEqual([
			["Content-Type", "application/json"],
			["X-Trace", "a:b:c"],
		]);
		expect(b.body).toBe('{\n  "title": "Dune"\n}');
		expect(b.problems).toEqual([]);
	});

	it("keeps body blank lines and a trailing line break written before the fence", () => {
		expect(parseHttpBlock("POST /a\n\nline1\n\nline3\n").body).toBe("line1\n\nline3\n");
		expect(parseHttpBlock("POST /a\n\n\nx").body).toBe("\nx");
	});

	it("treats a whitespace-only line as the end of the head", () => {
		expect(parseHttpBlock("POST /a\nA: 1\n  \t\nbody").body).toBe("body");
	});

	it("reads # and // lines as comments in the body too, as the peers do: they are not sent", () => {
		const b = parseHttpBlock("# leading\n// also\nPOST /a\n# between\nA: 1\n\n# a comment\n{\"a\": 1}\n// and this");
		expect(b.headers).toHaveLength(1);
		expect(b.body).toBe('{"a": 1}');
		expect(b.lines.map((l) => l.kind)).toEqual(["comment", "comment", "request", "comment", "header", "separator", "comment", "body", "comment"]);
	});

	it("appends query continuation lines to the URL", () => {
		const b = parseHttpBlock("GET https://x.test/search\n    ?q=dune\n    &page=2\nAccept: */*");
		expect(b.url).toBe("https://x.test/search?q=dune&page=2");
		expect(b.headers.map((h) => h.name)).toEqual(["Accept"]);
	});

	it("reads a `?` line after headers as an invalid header, not a query", () => {
		const b = parseHttpBlock("GET /a\nAccept: */*\n?q=1");
		expect(b.url).toBe("/a");
		expect(b.problems[0]).toMatchObject({ code: "invalid_header", line: 2 });
	});

	it.each([
		["GET /a\nNoColonHere", "invalid_header", 1, /Name: value/],
		["GET /a\n: empty name", "invalid_header", 1, /Name: value/],
		["GET /a\nBad Name: x", "invalid_header", 1, /Invalid HTTP token/],
		["GET /a\nX(y): x", "invalid_header", 1, /Invalid HTTP token/],
		["", "empty_block", 0, /empty/],
		["   \n\t\n", "empty_block", 0, /empty/],
		["# only a comment\n// and another", "missing_request_line", 0, /No request line/],
		["GET", "missing_url", 0, /Missing URL/],
		["FETCH /a", "unknown_method", 0, /Unknown method "FETCH"/],
		["# c\n\nfrobnicate https://x.test", "unknown_method", 2, /frobnicate/],
		["GET /a\n\n> {% client.test()\nno end", "unclosed_handler", 2, /not closed/],
	])("reports %j as %s on line %i", (text, code, line, message) => {
		const b = parseHttpBlock(text);
		expect(b.problems[0]).toMatchObject({ code, line, severity: "error" });
		expect(b.problems[0].message).toMatch(message);
	});

	it("accepts a header name with a reference, checking it after resolution instead", () => {
		expect(parseHttpBlock("GET /a\n{{header_name}}: x").problems).toEqual([]);
	});

	it("keeps {{ and \\{{ in the body as written", () => {
		const b = parseHttpBlock('POST /a\n\n{"t":"{{login.response.body.$.token}}","lit":"\\{{not}}"}');
		expect(b.body).toBe('{"t":"{{login.response.body.$.token}}","lit":"\\{{not}}"}');
	});

	it("reads CRLF blocks with the body's CRLF line breaks kept", () => {
		const b = parseHttpBlock("POST /a\r\nA: 1\r\n\r\nx\r\ny");
		expect(b.headers).toEqual([{ name: "A", value: "1", line: 1 }]);
		expect(b.body).toBe("x\r\ny");
		expect(lineBreakOf(b)).toBe("\r\n");
	});

	it("accepts tabs around header values and before comments", () => {
		const b = parseHttpBlock("GET /a\nAccept:\t*/*\t\n\t# comment");
		expect(b.headers[0].value).toBe("*/*");
		expect(b.lines[2].kind).toBe("comment");
	});

	it("reads `# @name` and `// @name` as the block name, and `# @no-redirect`", () => {
		expect(parseHttpBlock("# @name login\nPOST /a").nameDirective).toBe("login");
		expect(parseHttpBlock("// @name other\nGET /a").nameDirective).toBe("other");
		expect(parseHttpBlock("GET /a\n# @no-redirect").noRedirect).toBe(true);
		expect(parseHttpBlock("GET /a").noRedirect).toBe(false);
	});

	it("preserves JetBrains handler lines and does not send them", () => {
		const text = [
			"< {% request.variables.set('a', 1) %}",
			"POST /a",
			"Content-Type: application/json",
			"",
			'{"x":1}',
			"",
			"> {%",
			"  client.global.set('t', response.body.token);",
			"%}",
			">> ./saved.json",
			"<> ./previous.json",
		].join("\n");
		const b = parseHttpBlock(text);
		expect(b.method).toBe("POST");
		expect(b.body).toBe('{"x":1}');
		expect(b.lines.filter((l) => l.kind === "handler")).toHaveLength(6);
		expect(serializeHttpBlock(b)).toBe(text);
	});

	it("reads a handler right after the request line with no body", () => {
		const b = parseHttpBlock("GET /a\n\n> {% client.log(1) %}");
		expect(b.body).toBe("");
		// Reported, not an error: the block still runs.
		expect(b.problems).toEqual([{ code: "script_not_run", message: SCRIPT_NOT_RUN, line: 2, column: 0, severity: "warning" }]);
	});

	it.each([
		["> {% client.global.set('t', response.body.token) %}", [2]],
		["> ./handler.js", [2]],
		[">> out.json", [2]],
		["< {%\n  request.variables.set('a', 1)\n%}", [2]],
		["{{\n  exports.a = 1;\n}}", [2]],
	])("says scripts are not run on the line where %s starts", (script, lines) => {
		const b = parseHttpBlock(`POST https://x.test/a\n\n${script}`);
		expect(b.problems.filter((p) => p.code === "script_not_run").map((p) => p.line)).toEqual(lines);
		expect(b.problems.every((p) => p.severity === "warning")).toBe(true);
		expect(b.body).toBe("");
	});

	it("reads `< ./script.js` before the request line as a pre-request script (JetBrains, kulala): a warning, and the block runs", () => {
		const b = parseHttpBlock("< {%\n  request.variables.set('t', 1)\n%}\n< ./../scripts/pre.js\n\nPOST https://x.test/a\nAccept: */*\n\n{}");
		expect([b.method, b.url, b.body]).toEqual(["POST", "https://x.test/a", "{}"]);
		expect(b.problems).toEqual([0, 3].map((line) => ({ code: "script_not_run", message: SCRIPT_NOT_RUN, line, column: 0, severity: "warning" })));
		expect(b.lines.map((l) => l.kind).slice(0, 5)).toEqual(["handler", "handler", "handler", "handler", "blank"]);
	});

	it("reads `# @prompt` lines as comments of the head, with no problem (the run asks them: prompts.ts)", () => {
		const b = parseHttpBlock("# @prompt username\n// @prompt otp Your one-time password\nPOST https://x.test/login\n\n{\"u\": \"{{username}}\", \"otp\": \"{{otp}}\"}");
		expect([b.method, b.problems]).toEqual(["POST", []]);
		expect(b.lines.slice(0, 3).map((l) => l.kind)).toEqual(["comment", "comment", "request"]);
	});

	it("says kulala's `run` and `import` lines are not read, where they are written, and the block still runs", () => {
		const b = parseHttpBlock("import ./chain.http\nrun #Multi-form (@host=example.com)\n  run ./export/simple.http\n\nPOST https://x.test/post\n\n{}");
		expect([b.method, b.url, b.body, b.requestLine]).toEqual(["POST", "https://x.test/post", "{}", 4]);
		expect(b.problems.map((p) => [p.code, p.line, p.column, p.severity])).toEqual([
			["import_not_read", 0, 0, "warning"],
			["run_not_read", 1, 0, "warning"],
			["run_not_read", 2, 2, "warning"],
		]);
		expect(b.problems[0].message).toBe('Import lines (kulala) are not read: bring that file\'s requests into a note with the command "Import .http file"');
		expect(b.problems[1].message).toBe("Run lines (kulala) are not read: run that request yourself first; a {{alias.response…}} reference to it says when it has not run");
		expect(b.lines.map((l) => l.kind).slice(0, 4)).toEqual(["handler", "handler", "handler", "blank"]);
		// A form-mode edit keeps them before the request line.
		expect(toCanonicalRequest(b)?.preRequest).toEqual(["import ./chain.http", "run #Multi-form (@host=example.com)", "  run ./export/simple.http"]);
		// Only those forms: anything else is still a request line, and its method is checked.
		expect(parseHttpBlock("run fast").problems.map((p) => p.code)).toEqual(["unknown_method"]);
	});

	it.each([
		["<@ ./variables.json", [{ kind: "file", path: "./variables.json", resolveReferences: true, encoding: null, line: 2 }]],
		["< ./part.bin\n--b--", [{ kind: "file", path: "./part.bin", resolveReferences: false, encoding: null, line: 2 }, { kind: "text", text: "\n--b--" }]],
	])("starts the body at a file line right after the headers, as httpyac does: %j", (rest, parts) => {
		const b = parseHttpBlock(`POST https://x.test/a\naccept: application/json\n${rest}`);
		expect(b.problems).toEqual([]);
		expect(b.headers.map((h) => h.name)).toEqual(["accept"]);
		expect(b.bodyParts).toEqual(parts);
	});

	it.each([
		["{\n  \"a\": 1\n}", '{\n  "a": 1\n}'],
		['[{"a": 1}]', '[{"a": 1}]'],
		['{"ref": "{{id}}"}', '{"ref": "{{id}}"}'],
	])("starts the body at a JSON opening right after the headers (a forgotten empty line), as httpyac does: %j", (rest, body) => {
		const b = parseHttpBlock(`POST https://x.test/a\nContent-Type: application/json\n${rest}`);
		expect(b.problems).toEqual([]);
		expect([b.headers.map((h) => h.name), b.body]).toEqual([["Content-Type"], body]);
	});

	it("keeps a header whose name is a reference, though it starts with a brace", () => {
		const b = parseHttpBlock("GET https://x.test/a\n{{header_name}}: yes\n\nbody");
		expect(b.headers.map((h) => [h.name, h.value])).toEqual([["{{header_name}}", "yes"]]);
		expect(b.body).toBe("body");
	});

	it("still refuses a header line that is neither a header nor a file", () => {
		const b = parseHttpBlock("POST https://x.test/a\naccept: application/json\n<> previous.json\nbroken header");
		expect(b.problems.map((p) => [p.code, p.line])).toEqual([
			["invalid_header", 3],
			["script_not_run", 2],
		]);
	});
});

describe("serialization", () => {
	it.each([
		["GET https://x.test"],
		["get https://x.test HTTP/1.1\r\nAccept: */*\r\n\r\nbody\r\n"],
		["\n\n# c\nPOST /a\n  ?x=1\nA:1\nB :  2 \n\n\nbody\n\n"],
		["FETCH /nope\nbroken header\n\nx"],
		["   \t"],
		[""],
	])("reproduces %j byte for byte", (text) => {
		expect(serializeHttpBlock(parseHttpBlock(text))).toBe(text);
	});

	it("writes form-mode edits as canonical HTTP-message text", () => {
		const b = parseHttpBlock("# @name create\npost   https://x.test/books   \n  ?draft=1\ncontent-type:application/json\n\n{}");
		const req = toCanonicalRequest(b);
		expect(req).not.toBeNull();
		if (!req) return;
		req.headers.push(["X-Added", "yes"]);
		req.body = '{"title":"Dune"}';
		const text = serializeCanonical(req);
		expect(text).toBe('# @name create\nPOST https://x.test/books?draft=1\ncontent-type: application/json\nX-Added: yes\n\n{"title":"Dune"}');
		const again = parseHttpBlock(text);
		expect(again.headers.map((h) => [h.name, h.value])).toEqual(req.headers);
		expect(again.body).toBe(req.body);
		expect(serializeCanonical(toCanonicalRequest(again) ?? req)).toBe(text);
	});

	it("omits the empty line when the canonical request has no body, and keeps handlers", () => {
		const req = toCanonicalRequest(parseHttpBlock("GET /a\n\n> {% x %}"));
		expect(req && serializeCanonical(req)).toBe("GET /a\n\n> {% x %}");
		const plain = toCanonicalRequest(parseHttpBlock("GET /a\nAccept: x"));
		expect(plain && serializeCanonical(plain, "\r\n")).toBe("GET /a\r\nAccept: x");
	});

	it("keeps pre-request scripts before the request line: after the body `< ./pre.js` would be a body file", () => {
		const req = toCanonicalRequest(parseHttpBlock("# @name a\n< ./pre.js\nget /a\n\n{}\n\n> ./post.js"));
		expect(req && [req.preRequest, req.handlers]).toEqual([["< ./pre.js"], ["> ./post.js"]]);
		const text = req && serializeCanonical(req);
		expect(text).toBe("# @name a\n< ./pre.js\nGET /a\n\n{}\n\n> ./post.js");
		expect(parseHttpBlock(text ?? "").bodyParts).toEqual([{ kind: "text", text: "{}" }]);
	});

	it("has no canonical request without a valid request line", () => {
		expect(toCanonicalRequest(parseHttpBlock("FETCH /a"))).toBeNull();
	});
});
