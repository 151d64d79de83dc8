import { parseNote, type HttpNoteBlock } from "../../../../src/blocks";
import { prepareContext } from "../../../../src/runner/block-runners";
import { createHttpRunner } from "../../../../src/runner/http/run-http";
import type { ResponseReaders } from "../../../../src/runner/http/http-run";
import type { PreparedRequest } from "../../../../src/runner/request";
import type { BlockRunContext } from "../../../../src/runner/kind-runner";
import type { Transport, TransportOutcome } from "../../../../src/runner/transport";

/** Answers every request with a 201 and a JSON body, and keeps what it was sent. */
function created(): Transport & { sent: PreparedRequest[] } {
	const sent: PreparedRequest[] = [];
	return {
		name: "node",
		streams: true,
		sent,
		send(request): Promise<TransportOutcome> {
			sent.push(request);
			const head = { status: 201, statusText: "Created", httpVersion: "1.1", headers: [["Content-Type", "application/json"]] as Array<[string, string]>, url: request.url, redirects: 0 };
			return Promise.resolve({ kind: "done", head, body: new TextEncoder().encode('{"id":7}'), timing: { total: 2 }, requestBytes: 0, rawRequestHead: "" });
		},
	};
}

function contextFor(note: ReturnType<typeof parseNote>, block: HttpNoteBlock, transport: Transport, env: Record<string, string> = {}): BlockRunContext {
	return {
		prepare: prepareContext(note, block, { env, results: new Map() }),
		deps: { transport, cacheKey: () => "" },
		execute: { filePath: "api.md", historyAlias: block.alias ?? "#L1" },
	};
}

/** A reader lent for JSON bodies that says what it was handed, so a test sees that it was asked. */
const jsonReader: ResponseReaders = { "application/json": (body, selector, label) => ({ ok: true, value: `${label} ${selector} of ${body.byteLength} bytes` }) };
const HTTP_RUNNER = createHttpRunner({});

describe("createHttpRunner", () => {
	it("resolves the block's references, sends it, and checks its ?? assertions on note lines", async () => {
		const note = parseNote("# API\n```http alias=add\nPOST {{base}}/books\n?? status == 201\n?? body.$.id == 8\n```");
		const block = note[0] as HttpNoteBlock;
		const transport = created();
		const result = await HTTP_RUNNER.run(block, contextFor(note, block, transport, { base: "http://127.0.0.1:1" }));
		expect(transport.sent.map((r) => `${r.method} ${r.url}`)).toEqual(["POST http://127.0.0.1:1/books"]);
		expect(result.state).toBe("done");
		expect(result.kind === "http" && result.assertions?.map((a) => [a.line, a.text, a.ok])).toEqual([
			[4, "status == 201", true],
			[5, "body.$.id == 8", false],
		]);
		if (result.kind === "http") expect(HTTP_RUNNER.read(result, { alias: "add", part: "response", section: "body", selector: "$.id" })).toEqual({ ok: true, value: "7" });
	});

	it("fails before sending a block whose reference does not resolve", async () => {
		const note = parseNote("```http\nGET {{nowhere}}/x\n```");
		const block = note[0] as HttpNoteBlock;
		const transport = created();
		const result = await HTTP_RUNNER.run(block, contextFor(note, block, transport));
		expect(result).toMatchObject({ kind: "http", state: "failed", error: { code: "unresolved_reference" } });
		expect(transport.sent).toEqual([]);
	});

	it("fails a body file part without a host that reads files, naming its request", async () => {
		const note = parseNote("```http\nPOST http://127.0.0.1:1/upload\n\n< ./a.bin\n```");
		const block = note[0] as HttpNoteBlock;
		const result = await HTTP_RUNNER.run(block, contextFor(note, block, created()));
		expect(result).toMatchObject({ state: "failed", request: { url: "http://127.0.0.1:1/upload" } });
	});

	it("reads messages of a response with the reader lent for its media type, in references and its own # @property", async () => {
		const note = parseNote("```http alias=add\n# @property seen = {{add.response.messages.count}}\nPOST http://127.0.0.1:1/books\n```");
		const block = note[0] as HttpNoteBlock;
		const result = await createHttpRunner(jsonReader).run(block, contextFor(note, block, created()));
		const messages = { alias: "add", part: "response", section: "messages", selector: "count" } as const;
		expect(result.kind === "http" && createHttpRunner(jsonReader).read(result, messages)).toEqual({ ok: true, value: "add.response count of 8 bytes" });
		expect(result.properties).toMatchObject({ ok: true });
		expect(JSON.stringify(result.properties)).toContain("add.response count of 8 bytes");
		// Lent no reader for it, the runner reads no messages, and says so.
		expect(result.kind === "http" && HTTP_RUNNER.read(result, messages)).toEqual({ ok: false, message: "add.response is not a stream of messages, so it has no messages" });
	});
});
