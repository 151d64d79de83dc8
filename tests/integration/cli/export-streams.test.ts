/**
 * `runnable-blocks export` of stream blocks (issue 25, Export): the Node `ws` script a websocket
 * block exports, run by node, sends the server what `run` sends (handshake header, messages with
 * their references resolved, the wait, the close); SSE exports to `curl -N`; .http keeps the
 * peers' syntax; a format the kind has not is refused by name.
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { WebSocketServer } from "ws";
import { CLI, expectBuiltCli } from "../../support/cli-process";

const ROOT = resolve(__dirname, "../../..");

jest.setTimeout(60_000);

interface Seen {
	who: string | undefined;
	messages: string[];
	close: number | null;
}

let server: Server;
let wss: WebSocketServer;
let dir: string;
let host: string;
let sessions: Seen[] = [];
let closed: () => void = () => undefined;

function exec(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((done) => {
		// NODE_PATH: the exported script requires "ws" as a user's project would.
		execFile(process.execPath, args, { cwd: dir, env: { ...process.env, NO_COLOR: "1", NODE_PATH: join(ROOT, "node_modules") }, timeout: 30_000 }, (error, stdout, stderr) => {
			done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
		});
	});
}
const cli = (...args: string[]) => exec([CLI, ...args]);

/** The next session's end as the server saw it. */
const nextClose = () => new Promise<void>((done) => (closed = done));

beforeAll(async () => {
	expectBuiltCli();
	server = createServer();
	wss = new WebSocketServer({ server });
	wss.on("connection", (socket, req) => {
		const seen: Seen = { who: req.headers["x-who"] as string | undefined, messages: [], close: null };
		sessions.push(seen);
		socket.on("message", (data: Buffer) => {
			seen.messages.push(data.toString());
			socket.send(`got ${data.toString()}`);
		});
		socket.on("close", (code) => {
			seen.close = code;
			closed();
		});
	});
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
	dir = mkdtempSync(join(tmpdir(), "rb-cli-export-streams-"));
	writeFileSync(
		join(dir, "streams.md"),
		[
			"```http",
			"@who = ana",
			"```",
			"",
			"```http",
			"# @name chat",
			`WEBSOCKET ws://${host}/chat`,
			"X-Who: {{who}}",
			"",
			"hello {{who}}",
			"=== wait-for-server",
			"```",
			"",
			"```http",
			"# @name feed",
			`SSE http://${host}/events?who={{who}}`,
			"```",
			"",
		].join("\n"),
	);
});

afterAll(async () => {
	wss.close();
	await new Promise((done) => server.close(done));
	rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
	sessions = [];
});

describe("export of stream blocks", () => {
	it("the Node ws script sends what run sends: the header, the resolved message, the wait, then close 1000", async () => {
		let ended = nextClose();
		const run = await cli("run", "streams.md", "--alias", "chat");
		expect(run.code).toBe(0);
		await ended;
		const ran = sessions[0];
		expect(ran).toEqual({ who: "ana", messages: ["hello ana"], close: 1000 });

		const exported = await cli("export", "streams.md", "--alias", "chat", "--format", "ws");
		expect(exported.stderr).toBe("");
		expect(exported.code).toBe(0);
		ended = nextClose();
		const script = await exec(["-e", exported.stdout]);
		await ended;
		expect(script.stderr).toBe("");
		expect(script.stdout).toBe("got hello ana\nclosed 1000 \n");
		expect(sessions[1]).toEqual(ran);
	});

	it("websocat pipes the resolved messages; .http keeps WEBSOCKET and === wait-for-server", async () => {
		expect(await cli("export", "streams.md", "--alias", "chat", "--format", "websocat")).toEqual({ code: 0, stdout: `printf '%s\\n' 'hello ana' | websocat -n -H 'X-Who: ana' ws://${host}/chat\n`, stderr: "" });
		expect((await cli("export", "streams.md", "--alias", "chat", "--format", "http")).stdout).toBe(`### chat\n# @name chat\nWEBSOCKET ws://${host}/chat\nX-Who: ana\n\nhello ana\n=== wait-for-server\n`);
	});

	it("SSE exports to curl -N with the Accept header run sends, and to .http as SSE", async () => {
		expect(await cli("export", "streams.md", "--alias", "feed", "--format", "curl")).toEqual({ code: 0, stdout: `curl -N 'http://${host}/events?who=ana' -H 'Accept: text/event-stream' --location\n`, stderr: "" });
		expect((await cli("export", "streams.md", "--alias", "feed", "--format", "http")).stdout).toBe(`### feed\n# @name feed\nSSE http://${host}/events?who=ana\nAccept: text/event-stream\n`);
	});

	it("a format the block's kind has not is refused, naming the ones it has", async () => {
		expect(await cli("export", "streams.md", "--alias", "feed", "--format", "fetch")).toEqual({ code: 2, stdout: "", stderr: "runnable-blocks: cannot export feed: This SSE block exports as curl, http, not fetch\n" });
		expect(sessions).toEqual([]);
	});
});
