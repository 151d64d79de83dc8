/**
 * The peers' WebSocket and SSE examples (issue 25, Interop), read as the peers mean them: the
 * stream kinds claim them from an ```http fence, with the URL, headers and messages (JetBrains'
 * `===` and `=== wait-for-server`, kulala's and httpyac's `WS`/`SSE` request lines) the peers
 * send. Sources: the interop corpus (tests/interop/corpus.json, kulala's examples) and
 * tests/fixtures/interop-streams/SOURCES.md (the examples the corpus lacks). Each also survives
 * our `.http` export: written back in the peers' syntax, it reads as the same block.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseNote, type NoteBlock } from "../../src/blocks";
import { toHttpFile } from "../../src/runner/snippets/generators";
import { httpFileStream } from "../../src/runner/snippets/stream-snippets";
import type { ResolvedStep } from "../../src/runner/stream/prepare-stream";
import { loadCorpus } from "./conformance";

const DIR = join(__dirname, "..", "fixtures", "interop-streams");

/** The one block a peer's file makes in a note (a fence around it, as `import` writes it). */
function blockOf(text: string): NoteBlock {
	const note = parseNote("```http\n" + text.replace(/\n+$/, "") + "\n```\n");
	expect(note).toHaveLength(1);
	return note[0];
}
const fixture = (name: string) => blockOf(name.startsWith("kulala/") ? corpusText(name) : readFileSync(join(DIR, name), "utf8"));

/** A file of the interop corpus, as the conformance suite reads it (hosts sent to the recording server, `__PORT__` left as it is). */
function corpusText(file: string): string {
	const found = loadCorpus().files.find((f) => f.file === file);
	if (!found) throw new Error(`${file} is not in tests/interop/corpus.json`);
	return found.text;
}
const KULALA_WS = "kulala/docs__docs__usage__websockets.md.L0019.http";
const KULALA_CHUNKED = "kulala/docs__docs__usage__streaming-and-transfer-chunked.md.L0011.http";

function websocketOf(block: NoteBlock) {
	if (block.kind !== "websocket") throw new Error(`read as ${block.kind}, not websocket`);
	expect(block.problems).toEqual([]);
	const { request, steps, waits, word } = block.websocket;
	return { url: request.url, headers: request.headers.map((h) => [h.name, h.value]), steps: steps.map((s) => (s.kind === "text" ? s.text : s.kind === "file" ? `< ${s.path}` : "wait")), waits, word };
}

/** Our `.http` export of a block without references, read again. */
function exportedAgain(block: NoteBlock): NoteBlock {
	if (block.kind !== "websocket") throw new Error("websocket only");
	const { request, steps, word, waits } = block.websocket;
	const resolved: ResolvedStep[] = steps.map((s) => (s.kind === "wait" ? { kind: "wait" } : s.kind === "text" ? { kind: "text", text: s.text } : { kind: "file", path: s.path }));
	const prepared = { method: "GET" as const, url: request.url, headers: request.headers.map((h): [string, string] => [h.name, h.value]), body: "", followRedirects: true, timeoutMs: 1000 };
	const file = toHttpFile([{ request: prepared, lines: httpFileStream(prepared, { protocol: "websocket", word, graphql: false, steps: resolved, waits }) }]);
	// The `###` line is the file's separator, not part of the request.
	return blockOf(file.split("\n").slice(1).join("\n"));
}

describe("the peers' WebSocket examples", () => {
	it("kulala (WS wss://…, one JSON message): one message sent on connect, no wait", () => {
		expect(websocketOf(fixture(KULALA_WS))).toEqual({ url: "https://echo.websocket.org", headers: [], steps: ['{ "name": "world" }'], waits: false, word: "WS" });
	});

	it("JetBrains (WEBSOCKET, a header, === before the first message, two waits): the messages in order, each wait once", () => {
		expect(websocketOf(fixture("jetbrains-websocket.http"))).toEqual({
			url: "http://localhost:8080/websocket",
			headers: [["Content-Type", "application/json"]],
			steps: ['{\n  "message": "Hello, server!",\n  "repeat": 3\n}', "wait", "wait", '{\n  "message": "We send this message...",\n  "repeat": 0\n}', '{\n  "message": "And this message together",\n  "repeat": 1\n}'],
			waits: true,
			word: "WEBSOCKET",
		});
	});

	it.each([KULALA_WS, "jetbrains-websocket.http"])("%s: our .http export reads back as the same block", (name) => {
		const block = fixture(name);
		expect(websocketOf(exportedAgain(block))).toEqual(websocketOf(block));
	});
});

describe("the peers' SSE example", () => {
	it("httpyac (SSE https://…): an sse block, a GET of the URL", () => {
		const block = fixture("httpyac-sse.http");
		if (block.kind !== "sse") throw new Error(`read as ${block.kind}, not sse`);
		expect(block.problems).toEqual([]);
		expect({ word: block.sse.word, method: block.sse.request.method, url: block.sse.request.url }).toEqual({ word: "SSE", method: "GET", url: "https://express-eventsource.herokuapp.com/events" });
	});
});

describe("the peers' chunked-transfer example", () => {
	it("kulala (# @accept chunked, POST …): an http block, not a stream: the response is streamed as any http response", () => {
		const block = fixture(KULALA_CHUNKED);
		if (block.kind !== "http") throw new Error(`read as ${block.kind}, not http`);
		expect(block.problems.filter((p) => p.severity === "error")).toEqual([]);
		expect({ method: block.http.method, url: block.http.url, body: block.http.body }).toEqual({ method: "POST", url: "http://127.0.0.1:__PORT__/index", body: "" });
	});
});
