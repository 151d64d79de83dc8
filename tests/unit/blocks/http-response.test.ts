import { comparablePin, DEFAULT_PIN_CUT, parseNote, parsePinnedResponse, pinOptions } from "../../../src/blocks";

describe("the http-response fence (a pinned response)", () => {
	it("reads the status line, the headers, the body and the cut marker", () => {
		const pin = parsePinnedResponse('HTTP/1.1 200 OK\ncontent-type: application/json\netag: "x"\n\n{\n  "a": 1\n}\n[cut at 10 of 99 bytes]');
		expect(pin).toEqual({
			statusLine: "HTTP/1.1 200 OK",
			status: 200,
			headers: [["content-type", "application/json"], ["etag", '"x"']],
			body: '{\n  "a": 1\n}',
			cut: { shown: 10, total: 99 },
		});
	});

	it.each([
		["a status line alone", "HTTP/2 204", { status: 204, headers: [], body: "", cut: null }],
		["CRLF line breaks", "HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\n\r\nnope", { status: 404, body: "nope" }],
		["no status line: everything after the first line is read as it comes", "hello", { status: null, statusLine: "hello" }],
		["a marker-like line inside the body is body", "HTTP/1.1 200\n\n[cut at 1 of 2 bytes]\nmore", { cut: null, body: "[cut at 1 of 2 bytes]\nmore" }],
	])("reads %s", (_, content, expected) => expect(parsePinnedResponse(content)).toMatchObject(expected));

	it("is a block kind of its own whose alias= names the pinned block, so aliases stay unique", () => {
		const note = "```http alias=users\nGET http://x/users\n```\n```http-response alias=users\nHTTP/1.1 200 OK\n```\n";
		const [http, pin] = parseNote(note);
		expect(http).toMatchObject({ kind: "http", alias: "users", runnable: true });
		expect(pin).toMatchObject({ kind: "http-response", alias: null, info: { tokens: { alias: "users" } } });
		expect(pin.problems).toEqual([]);
	});

	it.each([
		["alias=a", { headers: null, cut: DEFAULT_PIN_CUT, normalize: false }],
		["alias=a headers=Content-Type,ETag cut=1k normalize=json", { headers: ["content-type", "etag"], cut: 1024, normalize: true }],
		["alias=a headers=* cut=2m", { headers: ["*"], cut: 2 * 1048576 }],
		["alias=a cut=700", { cut: 700 }],
	])("takes its options from the fence line: %s", (info, expected) => {
		const [pin] = parseNote(`\`\`\`http-response ${info}\nHTTP/1.1 200\n\`\`\`\n`);
		if (pin.kind !== "http-response") throw new Error("not a pin");
		expect(pinOptions(pin.info.tokens)).toMatchObject(expected);
	});

	it.each(["cut=0", "cut=big", "headers=a;b", "normalize=xml"])("reports an invalid option: %s", (token) => {
		const [pin] = parseNote(`\`\`\`http-response alias=a ${token}\nHTTP/1.1 200\n\`\`\`\n`);
		expect(pin.problems.map((p) => p.code)).toEqual(["invalid_token_value"]);
	});

	it("compares by status code, header lines and a JSON body with sorted keys", () => {
		const a = 'HTTP/1.1 200 OK\ncontent-type: application/json\n\n{"b": 1, "a": [1, 2]}';
		const b = 'HTTP/1.1 200\r\ncontent-type: application/json\r\n\r\n{\r\n  "a": [1, 2],\r\n  "b": 1\r\n}';
		expect(comparablePin(a)).toBe(comparablePin(b));
		expect(comparablePin(a)).not.toBe(comparablePin(a.replace('"b": 1', '"b": 2')));
		expect(comparablePin(a)).not.toBe(comparablePin(a.replace("200 OK", "201 Created")));
	});

	it("compares a cut body as written, marker included", () => {
		const a = 'HTTP/1.1 200\n\n{"b": 1,\n[cut at 8 of 20 bytes]';
		expect(comparablePin(a)).not.toBe(comparablePin(a.replace("of 20", "of 21")));
		expect(comparablePin(a)).toContain('{"b": 1,');
	});
});
