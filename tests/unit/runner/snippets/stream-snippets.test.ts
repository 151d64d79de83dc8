import type { SnippetWriter } from "../../../../src/runner/kind-runner";
import type { PreparedRequest } from "../../../../src/runner/request";
import { toHttpFile } from "../../../../src/runner/snippets/generators";
import { ExportError } from "../../../../src/runner/snippets/quote";
import { httpFileStream, SSE_SNIPPETS, toNodeWs, toWebsocat, WEBSOCKET_SNIPPETS } from "../../../../src/runner/snippets/stream-snippets";
import type { PreparedStream, ResolvedStep } from "../../../../src/runner/stream/prepare-stream";
import { shellWords } from "../../../support/shell-words";

// A stream's handshake is prepared as an http GET with its ws scheme written http (prepare-stream.ts).
const req = (patch: Partial<PreparedRequest> = {}): PreparedRequest => ({ method: "GET", url: "http://127.0.0.1:8080/chat?room=1", headers: [], body: "", followRedirects: true, timeoutMs: 1000, ...patch });
const ws = (steps: ResolvedStep[], patch: Partial<PreparedStream> = {}): PreparedStream => ({ protocol: "websocket", word: "WEBSOCKET", graphql: false, steps, waits: steps.some((s) => s.kind === "wait"), ...patch });
const sse: PreparedStream = { protocol: "sse", word: "SSE", graphql: false, steps: [], waits: false };
/** A stream block prepared for export (`prepareStreamExport`): its handshake request and its stream. */
const prepared = (request: PreparedRequest, stream: PreparedStream) => ({ ok: true as const, request, envSnapshot: {}, aliasesUsed: new Set<string>(), stream });
/** A stream in a `.http` file as export writes it: the http writer's file with the stream's lines. */
const inFile = (request: PreparedRequest, stream: PreparedStream, name: string | null = null) => toHttpFile([{ request, name, lines: httpFileStream(request, stream) }]);

describe("websocat", () => {
	it("dials the ws URL with the handshake headers; no messages leaves it interactive", () => {
		expect(toWebsocat(req({ headers: [["Authorization", "Bearer t"]] }), ws([]))).toBe("websocat -H 'Authorization: Bearer t' 'ws://127.0.0.1:8080/chat?room=1'");
		expect(toWebsocat(req({ url: "https://h.example/s" }), ws([]))).toBe("websocat wss://h.example/s");
	});

	it("pipes the messages in one per line and keeps the socket open after the last (-n)", () => {
		const text = toWebsocat(req(), ws([{ kind: "text", text: "hello" }, { kind: "wait" }, { kind: "text", text: `{"it's": 1}` }]));
		expect(text).toBe(`printf '%s\\n' hello '{"it'\\''s": 1}' | websocat -n 'ws://127.0.0.1:8080/chat?room=1'`);
		expect(shellWords(text.split(" | ")[0])).toEqual(["printf", "%s\\n", "hello", `{"it's": 1}`]);
	});

	it("a message with a line break is sent whole: NUL-separated input (-0)", () => {
		expect(toWebsocat(req(), ws([{ kind: "text", text: "a\nb" }, { kind: "text", text: "c" }]))).toBe(`printf '%s\\0' 'a\nb' c | websocat -n -0 'ws://127.0.0.1:8080/chat?room=1'`);
	});

	it("refuses what websocat cannot send: a file as one binary message, a GraphQL subscription, an SSE block", () => {
		expect(() => toWebsocat(req(), ws([{ kind: "file", path: "./a.bin" }]))).toThrow(/cannot send a file as one binary message/);
		expect(() => toWebsocat(req(), ws([], { graphql: true }))).toThrow(/GraphQL subscription cannot be exported to websocat/);
		expect(() => toWebsocat(req(), sse)).toThrow(ExportError);
		expect(() => toWebsocat(req({ headers: [["X", "a\nb"]] }), ws([]))).toThrow(/line break/);
	});
});

describe("Node ws script", () => {
	it("sends the steps in order, waits on null, closes with 1000 after the last step of a block that waits", () => {
		const script = toNodeWs(req({ headers: [["X-A", "1"], ["x-a", "2"]] }), ws([{ kind: "text", text: "hi" }, { kind: "wait" }, { kind: "file", path: "./a.bin" }]), { locate: () => "/vault/a.bin" });
		expect(script).toBe(
			[
				`const fs = require("node:fs");`,
				`const WebSocket = require("ws");`,
				"",
				`const socket = new WebSocket("ws://127.0.0.1:8080/chat?room=1", {`,
				"  headers: {",
				`    "X-A": "1, 2",`,
				"  },",
				"});",
				"const steps = [",
				`  "hi",`,
				"  null, // wait for one message from the server",
				`  fs.readFileSync("/vault/a.bin"),`,
				"];",
				"let next = 0;",
				"function advance() {",
				"  while (next < steps.length && steps[next] !== null) socket.send(steps[next++]);",
				"  if (next === steps.length) socket.close(1000);",
				"}",
				`socket.on("open", advance);`,
				`socket.on("message", (data, isBinary) => {`,
				"  console.log(isBinary ? `<binary, ${data.length} bytes>` : data.toString());",
				"  if (steps[next] === null) {",
				"    next++;",
				"    advance();",
				"  }",
				"});",
				`socket.on("close", (code, reason) => console.log("closed", code, reason.toString()));`,
				`socket.on("error", (error) => console.error(error.message));`,
			].join("\n"),
		);
	});

	it("a block that never waits stays open (no close after its messages), and needs no fs", () => {
		const script = toNodeWs(req(), ws([{ kind: "text", text: "hi" }]));
		expect(script).not.toContain("close(1000)");
		expect(script).not.toContain("node:fs");
		expect(script).toContain(`const socket = new WebSocket("ws://127.0.0.1:8080/chat?room=1");`);
	});

	it("refuses a GraphQL subscription (its frames answer the server in turn)", () => {
		expect(() => toNodeWs(req(), ws([], { graphql: true }))).toThrow(/export it as \.http/);
	});
});

describe("the stream kinds' writers", () => {
	it("SSE exports to curl -N with the Accept header Run sends", () => {
		expect(SSE_SNIPPETS.snippet("curl", prepared(req({ url: "http://127.0.0.1:8080/events", headers: [["Accept", "text/event-stream"]] }), sse), "ev", {})).toBe("curl -N http://127.0.0.1:8080/events -H 'Accept: text/event-stream' --location");
	});

	it("a websocket block is written by its format's tool, the file it sends located by the host", () => {
		const stream = ws([{ kind: "text", text: "hi" }, { kind: "file", path: "./a.bin" }]);
		expect(WEBSOCKET_SNIPPETS.snippet("websocat", prepared(req(), ws([{ kind: "text", text: "hi" }])), null, {})).toBe("printf '%s\\n' hi | websocat -n 'ws://127.0.0.1:8080/chat?room=1'");
		expect(WEBSOCKET_SNIPPETS.snippet("ws", prepared(req(), stream), null, { locate: (p) => `/vault/${p.slice(2)}` })).toContain('fs.readFileSync("/vault/a.bin")');
	});

	it.each<[string, SnippetWriter, PreparedStream]>([
		["SSE", SSE_SNIPPETS, sse],
		["websocket", WEBSOCKET_SNIPPETS, ws([{ kind: "text", text: "hi" }])],
	])("%s writes .http as one request of a file, in the peers' syntax", (_, writer, stream) => {
		const block = prepared(req(), stream);
		expect(writer.snippet("http", block, "s", {})).toBe(toHttpFile([{ request: block.request, name: "s", lines: writer.httpFileLines(block, false) }]));
		expect(writer.httpFileLines(block, false)[0]).toMatch(/^(SSE http|WEBSOCKET ws):\/\/127\.0\.0\.1:8080\/chat\?room=1$/);
	});

	it("a vault file keeps a secret's {{reference}} in the messages (forFile)", () => {
		const stream = ws([{ kind: "text", text: "token s3cret" }], { stepsForFile: [{ kind: "text", text: "token {{token}}" }] });
		expect(WEBSOCKET_SNIPPETS.httpFileLines(prepared(req(), stream), true)).toContain("token {{token}}");
		expect(WEBSOCKET_SNIPPETS.httpFileLines(prepared(req(), stream), false)).toContain("token s3cret");
	});

	it(".http keeps the peers' syntax: the request line's word, === between messages, === wait-for-server", () => {
		const steps: ResolvedStep[] = [{ kind: "text", text: '{"a": 1}\n{"b": 2}' }, { kind: "text", text: "two" }, { kind: "wait" }, { kind: "wait" }, { kind: "file", path: "./a.bin" }, { kind: "text", text: "last" }];
		expect(inFile(req({ headers: [["Origin", "x"]], followRedirects: false }), ws(steps, { word: "wss" }), "chat")).toBe(
			["### chat", "# @name chat", "WSS ws://127.0.0.1:8080/chat?room=1", "Origin: x", "", '{"a": 1}', '{"b": 2}', "===", "two", "=== wait-for-server", "=== wait-for-server", "< ./a.bin", "===", "last", ""].join("\n"),
		);
		expect(inFile(req(), ws([], { word: null }))).toBe("### GET http://127.0.0.1:8080/chat?room=1\nWEBSOCKET ws://127.0.0.1:8080/chat?room=1\n");
		expect(inFile(req({ url: "https://h.example/events" }), { ...sse, word: "eventsource" }, "ev")).toBe("### ev\n# @name ev\nEVENTSOURCE https://h.example/events\n");
	});

	it(".http writes a GraphQL subscription as its operation and variables", () => {
		const body = JSON.stringify({ query: "subscription { count(to: 3) }", variables: { to: 3 } });
		expect(inFile(req({ method: "POST", body }), ws([], { graphql: true }), "sub")).toBe(
			["### sub", "# @name sub", "GRAPHQL ws://127.0.0.1:8080/chat?room=1", "", "subscription { count(to: 3) }", "", "{", '  "to": 3', "}", ""].join("\n"),
		);
	});
});

describe("a stream with a client certificate (ClientCert)", () => {
	const cert = { clientCert: { pfx: "client.p12", passphrase: "p" }, noClientCert: undefined } as const;

	it("keeps the pseudo-header in a .http file, for an SSE block and a WebSocket block alike", () => {
		expect(inFile(req({ url: "https://h.example/events", ...cert }), sse)).toBe("### GET https://h.example/events\nSSE https://h.example/events\nClientCert: pfx: client.p12 passphrase: p\n");
		expect(inFile(req({ url: "https://h.example/chat", noClientCert: true }), ws([]))).toBe("### GET https://h.example/chat\n# @no-client-cert\nWEBSOCKET wss://h.example/chat\n");
	});

	it("is refused by websocat and the ws script, which would dial without it", () => {
		const secure = req({ url: "https://h.example/chat", ...cert });
		expect(() => toWebsocat(secure, ws([]))).toThrow("A request with a client certificate (ClientCert) exports to cURL and .http only, not websocat");
		expect(() => toNodeWs(secure, ws([]))).toThrow("A request with a client certificate (ClientCert) exports to cURL and .http only, not a Node ws script");
		// ws:// has no handshake to present it in: written as any other.
		expect(toWebsocat(req({ ...cert }), ws([]))).toBe("websocat 'ws://127.0.0.1:8080/chat?room=1'");
	});
});
