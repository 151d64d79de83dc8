import { parseHttpBlock } from "../../../../src/blocks";
import { snippetFormats } from "../../../../src/runner/block-runners";
import type { SnippetOptions } from "../../../../src/runner/kind-runner";
import type { PreparedRequest } from "../../../../src/runner/request";
import { HTTP_SNIPPETS, httpRequestLines, toCurl, toFetch, toHttpFile, toHttpie, toPython } from "../../../../src/runner/snippets/generators";
import { ExportError } from "../../../../src/runner/snippets/quote";
import { shellWords } from "../../../support/shell-words";

const req = (patch: Partial<PreparedRequest> = {}): PreparedRequest => ({ method: "GET", url: "http://127.0.0.1:8080/a?b=1", headers: [], body: "", followRedirects: true, timeoutMs: 1000, ...patch });
/** An http block's snippet in a format of its registry line, as export writes it. */
const snippet = (format: string, request: PreparedRequest, name: string | null = null, opts: SnippetOptions = {}) => HTTP_SNIPPETS.snippet(format, { ok: true, request, envSnapshot: {}, aliasesUsed: new Set() }, name, opts);

describe("curl", () => {
	it.each<[Partial<PreparedRequest>, string[]]>([
		[{}, ["curl", "http://127.0.0.1:8080/a?b=1", "--location"]],
		[{ method: "POST", body: "x" }, ["curl", "http://127.0.0.1:8080/a?b=1", "-H", "Content-Type:", "--data-raw", "x", "--location"]],
		[{ method: "PUT", body: "x", headers: [["Content-Type", "text/plain"]] }, ["curl", "-X", "PUT", "http://127.0.0.1:8080/a?b=1", "-H", "Content-Type: text/plain", "--data-raw", "x", "--location"]],
		[{ method: "DELETE" }, ["curl", "-X", "DELETE", "http://127.0.0.1:8080/a?b=1", "--location"]],
		[{ method: "HEAD" }, ["curl", "--head", "http://127.0.0.1:8080/a?b=1", "--location"]],
		[{ followRedirects: false, headers: [["X-Empty", ""]] }, ["curl", "http://127.0.0.1:8080/a?b=1", "-H", "X-Empty;"]],
		[{ headers: [["Accept-Encoding", "gzip, br"]] }, ["curl", "http://127.0.0.1:8080/a?b=1", "-H", "Accept-Encoding: gzip, br", "--compressed", "--location"]],
		[{ url: "http://h/a?x[0]=1" }, ["curl", "--globoff", "http://h/a?x[0]=1", "--location"]],
	])("%j", (patch, argv) => {
		expect(shellWords(toCurl(req(patch)))).toEqual(argv);
	});

	it("writes --output for Send as cURL", () => {
		expect(shellWords(toCurl(req(), { output: "big file.bin" })).slice(-2)).toEqual(["--output", "big file.bin"]);
	});

	it("prints as the body arrives (-N) only when asked: an event stream's curl", () => {
		expect(shellWords(toCurl(req(), { unbuffered: true }))).toEqual(["curl", "-N", "http://127.0.0.1:8080/a?b=1", "--location"]);
		expect(toCurl(req())).not.toContain("-N");
	});
});

describe("other generators", () => {
	it("fetch sends bytes and joins repeated headers", () => {
		const code = toFetch(req({ method: "POST", body: "é", headers: [["X", "a"], ["x", "b"]] }));
		expect(code).toContain('body: new TextEncoder().encode("é")');
		expect(code).toContain('["X", "a, b"]');
		expect(code).toContain('redirect: "follow"');
	});

	it("python sends UTF-8 bytes and honours no-redirect", () => {
		const code = toPython(req({ method: "PATCH", body: "a\nb", followRedirects: false }));
		expect(code).toContain('data = "a\\nb".encode("utf-8")');
		expect(code).toContain('requests.request("PATCH", "http://127.0.0.1:8080/a?b=1", data=data, allow_redirects=False)');
	});

	it("httpie removes its JSON default Content-Type when the block has none", () => {
		expect(shellWords(toHttpie(req({ method: "POST", body: "{}" })))).toEqual(["http", "--ignore-stdin", "--follow", "POST", "http://127.0.0.1:8080/a?b=1", "Content-Type:", "--raw", "{}"]);
	});

	it.each(snippetFormats("http").map((f) => [f]))("%s refuses a header with a line break", (format) => {
		expect(() => snippet(format, req({ headers: [["X-Bad", "a\r\nInjected: 1"]] }))).toThrow(ExportError);
		expect(() => snippet(format, req({ headers: [["X-Bad", "a\nb"]] }))).toThrow(/line break/);
	});
});

describe("bodies with < file parts", () => {
	const oneFile = req({ method: "POST", body: "< ./a.bin", fileParts: [{ kind: "file", path: "./a.bin", resolveReferences: false, encoding: null }] });
	const locate = (written: string) => (written === "./a.bin" ? "/vault/it's a.bin" : null);

	it("a body that is one file is sent by name", () => {
		expect(shellWords(toCurl(oneFile, { locate }))).toEqual(["curl", "http://127.0.0.1:8080/a?b=1", "-H", "Content-Type:", "--data-binary", "@/vault/it's a.bin", "--location"]);
		expect(toPython(oneFile, { locate })).toContain('data = Path("/vault/it\'s a.bin").read_bytes()');
		expect(toFetch(oneFile, { locate })).toContain('body: require("node:fs").readFileSync("/vault/it\'s a.bin")');
		expect(toHttpie(oneFile, { locate })).toMatch(/^http --follow POST .* < '\/vault\/it'\\''s a\.bin'$/);
	});

	it("text around a file is piped in with it, framed as on the wire (CRLF for multipart)", () => {
		const multipart = req({
			method: "POST",
			headers: [["Content-Type", "multipart/form-data; boundary=b"]],
			body: "--b\n\n< ./a.bin\n--b--",
			fileParts: [{ kind: "text", text: "--b\n\n" }, { kind: "file", path: "./a.bin", resolveReferences: false, encoding: null }, { kind: "text", text: "\n--b--" }],
		});
		expect(toCurl(multipart, { locate })).toMatch(/^\{ printf '%s' '--b\r\n\r\n'; cat -- '\/vault\/it'\\''s a\.bin'; printf '%s' '\r\n--b--'; \} \| curl .* --data-binary @- --location$/);
		expect(toPython(multipart, { locate })).toContain('data = b"".join([\n    "--b\\r\\n\\r\\n".encode("utf-8"),\n    Path(');
	});

	it.each(snippetFormats("http").filter((f) => f !== "http").map((f) => [f]))("%s refuses <@ (references inside the file) and a file it cannot find", (format) => {
		const resolving = req({ method: "POST", body: "<@ ./a.bin", fileParts: [{ kind: "file", path: "./a.bin", resolveReferences: true, encoding: null }] });
		expect(() => snippet(format, resolving, null, { locate })).toThrow(/"<@ \.\/a\.bin" resolves references inside the file/);
		expect(() => snippet(format, oneFile, null, { locate: () => null })).toThrow(/the body file \.\/a\.bin was not found/);
		expect(() => snippet(format, oneFile)).toThrow(/exported as a snippet on desktop only/);
	});

	it(".http keeps the < line as written (the peers read the file)", () => {
		expect(toHttpFile([{ request: oneFile }])).toContain("\n\n< ./a.bin\n");
	});
});

describe(".http files", () => {
	it("separates requests with ### and re-imports to the same requests", () => {
		const requests: PreparedRequest[] = [
			req({ method: "POST", headers: [["Content-Type", "application/json"], ["X-Multi", "1"], ["X-Multi", "2"]], body: '{\n  "a": 1\n}' }),
			req({ method: "DELETE", url: "http://h/b", followRedirects: false }),
		];
		const file = toHttpFile([{ request: requests[0], name: "create" }, { request: requests[1], name: null }]);
		const parts = file.split(/^###.*$/m).slice(1);
		expect(parts).toHaveLength(2);
		const parsed = parts.map((p) => parseHttpBlock(p.replace(/^\n/, "").replace(/\n+$/, "")));
		expect(parsed.map((b) => [b.method, b.url, b.headers.map((h) => [h.name, h.value]), b.body, b.nameDirective, b.noRedirect])).toEqual([
			["POST", "http://127.0.0.1:8080/a?b=1", [["Content-Type", "application/json"], ["X-Multi", "1, 2"]], requests[0].body, "create", false],
			["DELETE", "http://h/b", [], "", null, true],
		]);
	});

	it("writes a request as its kind gives its lines, an http request's by default", () => {
		const r = req({ method: "POST", body: "x", followRedirects: false });
		const prepared = { ok: true as const, request: r, envSnapshot: {}, aliasesUsed: new Set<string>() };
		expect(HTTP_SNIPPETS.httpFileLines(prepared, true)).toEqual(["# @no-redirect", "POST http://127.0.0.1:8080/a?b=1", "", "x"]);
		expect(toHttpFile([{ request: r, name: "a" }])).toBe(toHttpFile([{ request: r, name: "a", lines: httpRequestLines(r) }]));
		expect(toHttpFile([{ request: r, name: "a", lines: ["SSE http://h/e"] }])).toBe("### a\n# @name a\nSSE http://h/e\n");
	});
});
