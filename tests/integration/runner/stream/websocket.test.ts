import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { blockKey, parseNote } from "../../../../src/blocks";
import { createEngine, type EngineHistory } from "../../../../src/runner/engine";
import type { HistoryEntry } from "../../../../src/runner/executor";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import type { KindDeps, RunSnapshot } from "../../../../src/runner/result";
import type { StreamRun } from "../../../../src/runner/stream/stream-run";
import { createWsTransport, type WebsocketTransport } from "../../../../src/runner/stream/ws-transport";

jest.setTimeout(60_000);

/** A real `ws` server behind a node http server: the path picks the scenario. */
let server: Server;
let wss: WebSocketServer;
let base: string;
const seen: { headers: IncomingMessage["headers"][]; closes: Array<{ path: string; code: number }>; pongs: number; received: string[] } = { headers: [], closes: [], pongs: 0, received: [] };
/** Sockets of the `/slow` scenario: the test answers for the server. */
const slow: WebSocket[] = [];

function scenario(socket: WebSocket, path: string): void {
	socket.on("close", (code) => seen.closes.push({ path, code }));
	socket.on("pong", () => seen.pongs++);
	socket.on("message", (data, isBinary) => {
		seen.received.push((data as Buffer).toString(isBinary ? "hex" : "utf8"));
		if (path === "/echo") socket.send(data, { binary: isBinary });
	});
	if (path === "/greet") {
		socket.ping();
		socket.send("hello");
		socket.send(Buffer.from([0, 1, 2, 255]));
		socket.close(4001, "bye for now");
	}
	if (path === "/slow") slow.push(socket);
	if (path === "/flood") {
		for (let k = 0; k < 100_000; k++) socket.send(`m${k}`);
	}
}

beforeAll(async () => {
	server = createServer((_req, res) => res.end());
	wss = new WebSocketServer({ noServer: true });
	server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
		seen.headers.push(req.headers);
		if (req.url === "/private") {
			socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: 12\r\nWWW-Authenticate: Bearer\r\n\r\nwho are you?");
			return;
		}
		wss.handleUpgrade(req, socket, head, (ws) => scenario(ws, req.url ?? "/"));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	for (const c of wss.clients) c.terminate();
	wss.close();
	await new Promise((resolve) => server.close(resolve));
});

function engineFor(kinds: Partial<KindDeps> = {}) {
	const rows: HistoryEntry[] = [];
	const history: EngineHistory = { record: (e) => rows.push(e), list: async () => [], renameFile: () => undefined, ready: async () => undefined };
	const transport = createNodeTransport();
	const engine = createEngine({
		transport: () => transport,
		history: () => history,
		environment: () => ({ name: "local", variables: { host: base, token: "t0k" }, secretValues: [], secretNames: [], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 10_000,
		kinds: () => ({ websocket: { transport: createWsTransport() }, ...kinds }),
		close: async () => transport.close(),
	});
	return { engine, rows };
}

function until(engine: ReturnType<typeof engineFor>["engine"], key: string, check: (s: RunSnapshot) => boolean): Promise<RunSnapshot> {
	return new Promise((resolve) => {
		const off = engine.sessions.note("w.md").subscribe(key, (s) => {
			if (check(s)) {
				queueMicrotask(() => off());
				resolve(s);
			}
		});
	});
}

async function waitFor(check: () => boolean): Promise<void> {
	while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe("websocket blocks against a real ws server", () => {
	it("sends headers and messages (references resolved), keeps text and binary, answers a ping, reads the server's close", async () => {
		const { engine, rows } = engineFor();
		const note = parseNote("```http\n# @name chat\nWEBSOCKET ws://{{host}}/greet\nAuthorization: Bearer {{token}}\n\nhi {{token}}\n\n?? messages.count == 2\n?? messages.0.data == hello\n```");
		const [run] = await engine.run("w.md", note, note);
		const r = run.result as StreamRun;
		expect(r).toMatchObject({ kind: "websocket", state: "done", head: { status: 101 }, close: { code: 4001, reason: "bye for now", why: "server_closed" }, transport: "ws" });
		expect(r.messages.map((m) => [m.direction, m.binary, m.data, m.size])).toEqual([
			["sent", false, "hi t0k", 6],
			["received", false, "hello", 5],
			["received", true, Buffer.from([0, 1, 2, 255]).toString("base64"), 4],
		]);
		expect(r.assertions?.every((a) => a.ok)).toBe(true);
		expect(seen.headers.at(-1)?.authorization).toBe("Bearer t0k");
		await waitFor(() => seen.pongs > 0);
		expect(rows).toEqual([expect.objectContaining({ method: "WEBSOCKET", url: `ws://${base}/greet`, status: 101, outcome: "done", itemCount: 2, sentCount: 1, closeCode: 4001, requestBytes: 6, responseBytes: 9 })]);
		await engine.close();
	});

	it("wait-for-server waits for the server before the next message, and the last wait closes with 1000", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http\nWS ws://{{host}}/slow\n\none\n=== wait-for-server\ntwo\n=== wait-for-server\n=== wait-for-server\n```");
		const before = slow.length;
		const running = engine.run("w.md", note, note);
		await waitFor(() => slow.length > before && seen.received.at(-1) === "one");
		const socket = slow[slow.length - 1];
		const count = seen.received.length;
		socket.send("first answer");
		await waitFor(() => seen.received.length > count);
		expect(seen.received.at(-1)).toBe("two");
		socket.send("second answer");
		socket.send("third answer");
		const [run] = await running;
		expect(run.result).toMatchObject({ state: "done", close: { code: 1000, why: "steps_done" }, counts: { sent: 2, received: 3 } });
		await waitFor(() => seen.closes.some((c) => c.path === "/slow" && c.code === 1000));
		await engine.close();
	});

	it("Stop closes the socket within a second, the server sees it, and what arrived is kept", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http\nwss://{{host}}/slow\n```".replace("wss://", "ws://"));
		const before = slow.length;
		const closes = seen.closes.length;
		const running = engine.run("w.md", note, note);
		await waitFor(() => slow.length > before);
		slow[slow.length - 1].send("kept");
		await until(engine, blockKey(note[0]), (s) => (s as StreamRun).counts?.received === 1);
		engine.sessions.note("w.md").cancel(blockKey(note[0]));
		const [run] = await running;
		expect(run.result).toMatchObject({ state: "cancelled", error: { message: "[cancelled]" }, close: { code: 1000, why: "cancelled" } });
		expect((run.result as StreamRun).messages.map((m) => m.data)).toEqual(["kept"]);
		await waitFor(() => seen.closes.length > closes);
		await engine.close();
	});

	it("a refused upgrade is the ordinary http response it is", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http\nWEBSOCKET ws://{{host}}/private\n\n?? status == 401\n```");
		const [run] = await engine.run("w.md", note, note);
		const r = run.result as StreamRun;
		expect(r).toMatchObject({ state: "done", head: { status: 401 }, counts: { received: 0, sent: 0 } });
		expect(r.head?.headers).toContainEqual(["WWW-Authenticate", "Bearer"]);
		expect(Buffer.from(r.body ?? new Uint8Array()).toString()).toBe("who are you?");
		expect(r.assertions?.[0].ok).toBe(true);
		await engine.close();
	});

	it("the panel's send adds a message while the stream is open", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http max_messages=2\nWS ws://{{host}}/echo\n\nfirst\n```");
		const running = engine.run("w.md", note, note);
		const open = (await until(engine, blockKey(note[0]), (s) => (s as StreamRun).counts?.received === 1)) as StreamRun;
		expect(open.send?.("typed in the box")).toBe(true);
		const [run] = await running;
		const r = run.result as StreamRun;
		expect(r.messages.map((m) => `${m.direction}:${m.data}`)).toEqual(["sent:first", "received:first", "sent:typed in the box", "received:typed in the box"]);
		expect(r.send).toBeUndefined();
		await engine.close();
	});

	it("100,000 small messages arrive, counted and kept in order", async () => {
		const { engine } = engineFor();
		const note = parseNote("```http max_messages=100000\nWS ws://{{host}}/flood\n```");
		const [run] = await engine.run("w.md", note, note);
		const r = run.result as StreamRun;
		expect(r).toMatchObject({ state: "done", close: { why: "max_messages" }, counts: { received: 100_000 } });
		expect(r.messages[99_999].data).toBe("m99999");
		await engine.close();
	});

	it("where the transport cannot send headers, the block says so and runs without them only when asked", async () => {
		const noHeaders: WebsocketTransport = { ...createWsTransport(), name: "browser", sendsHeaders: false };
		const { engine } = engineFor({ websocket: { transport: noHeaders } });
		const note = parseNote("```http max_messages=1\nWS ws://{{host}}/echo\nX-Token: {{token}}\n\nping\n```");
		const [refused] = await engine.run("w.md", note, note);
		expect(refused.result).toMatchObject({ state: "failed", error: { code: "headers_not_sent", detail: "X-Token" } });
		const count = seen.headers.length;
		const [run] = await engine.run("w.md", note, note, { kindOptions: { websocket: { dropHeaders: true } } });
		expect(run.result).toMatchObject({ state: "done", droppedHeaders: ["X-Token"], counts: { received: 1 } });
		expect(seen.headers.length).toBe(count + 1);
		await engine.close();
	});
});
