/**
 * Stream blocks through the real CLI (docs/streams.md): `--json` gives each block's `messages`,
 * its close and counts; a failed `??` on messages exits 1 and counts in the JUnit report.
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocketServer } from "ws";
import type { RunResultJson } from "../../../src/cli/result-json";
import { expectBuiltCli, runCli, type CliRun } from "../../support/cli-process";

jest.setTimeout(60_000);

let server: Server;
let wss: WebSocketServer;
let dir: string;

function cli(args: string[]): Promise<CliRun> {
	return runCli(args, { cwd: dir, env: { NO_COLOR: "1" } });
}

beforeAll(async () => {
	expectBuiltCli();
	server = createServer((_req, res) => {
		res.writeHead(200, { "content-type": "text/event-stream" });
		res.end('event: tick\nid: 1\ndata: {"n": 1}\n\ndata: two\n\n');
	});
	wss = new WebSocketServer({ server });
	wss.on("connection", (socket) => socket.on("message", (data, isBinary) => socket.send(data, { binary: isBinary })));
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
	dir = mkdtempSync(join(tmpdir(), "rb-cli-streams-"));
	writeFileSync(
		join(dir, "streams.md"),
		[
			"```http",
			"# @name feed",
			`SSE http://${host}/events`,
			"",
			"?? messages.count == 2",
			"?? messages.0.data $.n == 1",
			"```",
			"",
			"```http max_messages=1",
			"# @name echo",
			`WEBSOCKET ws://${host}/`,
			"",
			"{{feed.response.messages.-1.data}}",
			"",
			"?? messages.-1.data == three",
			"```",
		].join("\n"),
	);
});
afterAll(async () => {
	wss.close();
	await new Promise((done) => server.close(done));
	rmSync(dir, { recursive: true, force: true });
});

describe("run: stream blocks", () => {
	it("--json has each stream's messages, close and counts; a failed assertion exits 1 and is counted in JUnit", async () => {
		const { code, stdout } = await cli(["run", "streams.md", "--json", "--junit", "report.xml"]);
		expect(code).toBe(1);
		const [feed, echo] = JSON.parse(stdout) as RunResultJson[];
		expect(feed).toMatchObject({ alias: "feed", state: "done", status: 200, close: { code: null, why: "server_closed" }, counts: { received: 2, sent: 0 } });
		expect(feed.messages).toEqual([expect.objectContaining({ direction: "received", data: '{"n": 1}', event: "tick", id: "1" }), expect.objectContaining({ direction: "received", data: "two" })]);
		expect(feed.assertions?.map((a) => a.ok)).toEqual([true, true]);
		expect(echo).toMatchObject({ alias: "echo", state: "done", status: 101, close: { code: 1000, why: "max_messages" } });
		expect(echo.messages?.map((m) => [m.direction, m.data])).toEqual([
			["sent", "two"],
			["received", "two"],
		]);
		expect(echo.assertions).toEqual([expect.objectContaining({ ok: false, actual: "two" })]);
		const junit = readFileSync(join(dir, "report.xml"), "utf8");
		expect(junit).toMatch(/tests="3"/);
		expect(junit).toMatch(/failures="1"/);
	});

	it("prints a line per stream block with its close and counts", async () => {
		const { stdout } = await cli(["run", "streams.md"]);
		expect(stdout).toMatch(/feed {2}SSE http:\/\/127\.0\.0\.1:\d+\/events {2}→ 200 OK .*closed \(server closed\), 2 received/);
		expect(stdout).toMatch(/echo {2}WEBSOCKET ws:\/\/127\.0\.0\.1:\d+\/ {2}→ 101 Switching Protocols .*closed 1000 \(max messages\), 1 received/);
	});
});
