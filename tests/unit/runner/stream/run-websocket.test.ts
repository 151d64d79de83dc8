import WsModule from "ws";
import { WEBSOCKET_RUNNER } from "../../../../src/runner/stream/run-websocket";
import type { WebsocketNoteBlock } from "../../../../src/runner/stream/prepare-stream";
import type { StreamRun } from "../../../../src/runner/stream/stream-run";
import { createBrowserWsTransport, createWsTransport, type WebsocketTransport } from "../../../../src/runner/stream/ws-transport";
import type { BodyFiles } from "../../../../src/runner/file-parts";
import { manualTimers } from "../../../support/manual-timers";
import { refusedPort, startSilentServer } from "../../../support/servers";
import { streamHarness } from "../../../support/stream-block";
import { until } from "../../../support/until";
import { startWsServer, type SeenConnection, type WsTestServer } from "../../../support/ws-server";

jest.setTimeout(20_000);

let server: WsTestServer;
let host: string;

/** What the server does on each path once the upgrade is accepted; `/wait` and `/stop` are driven by the spec. */
function scenario(socket: WsModule, path: string): void {
	if (path === "/greet") {
		socket.send("hello");
		socket.send(Buffer.from([0, 1, 2, 255]));
		socket.close(4001, "bye for now");
	}
	if (path === "/flood") for (let k = 1; k <= 5; k++) socket.send(`m${k}`);
	if (path === "/deaf") socket.pause(); // reads nothing, so never answers a close frame
	if (path === "/drop") socket.send("one", () => socket.terminate());
}

beforeAll(async () => {
	server = await startWsServer(scenario);
	host = server.url.replace(/^ws:\/\//, "");
});

afterAll(async () => {
	await server.close();
});

const connectionTo = (path: string): SeenConnection | undefined => [...server.connections].reverse().find((c) => c.path === path);

/** A websocket block's run with hand-moved timers and clock. */
function websocket(markdown: string, options: { transport?: WebsocketTransport; signal?: AbortSignal; dropHeaders?: boolean; files?: BodyFiles; noTransport?: boolean } = {}) {
	const timers = manualTimers();
	const kinds = options.noTransport ? { websocket: { timers } } : { websocket: { transport: options.transport ?? createWsTransport(), timers } };
	const h = streamHarness<WebsocketNoteBlock>(
		markdown,
		// The http transport is never used by a websocket block: one that fails every request proves it.
		{ transport: { name: "node", streams: true, send: () => Promise.reject(new Error("not for websockets")) }, now: timers.now, kinds, files: options.files },
		{ env: { host, token: "t0k" }, execute: { signal: options.signal, kindOptions: options.dropHeaders ? { websocket: { dropHeaders: true } } : undefined } },
	);
	const count = (direction: "sent" | "received") => h.latest()?.counts[direction] ?? 0;
	return { ...h, timers, count, running: WEBSOCKET_RUNNER.run(h.block, h.ctx) as Promise<StreamRun> };
}

const shown = (run: StreamRun) => run.messages.map((m) => [m.direction, m.atMs, m.binary, m.data, m.size]);

describe("a websocket block against a real ws server", () => {
	it("sends its headers and messages (references resolved), keeps text and binary (base64), and reads the server's close", async () => {
		const ws = websocket("```http\n# @name chat\nWEBSOCKET ws://{{host}}/greet\nAuthorization: Bearer {{token}}\n\nhi {{token}}\n===\nçà\n```");
		const run = await ws.running;
		expect(shown(run)).toEqual([
			["sent", 0, false, "hi t0k", 6],
			["sent", 0, false, "çà", 4],
			["received", 0, false, "hello", 5],
			["received", 0, true, Buffer.from([0, 1, 2, 255]).toString("base64"), 4],
		]);
		expect(run).toMatchObject({ kind: "websocket", state: "done", head: { status: 101 }, close: { code: 4001, reason: "bye for now", why: "server_closed" }, transport: "ws" });
		expect(connectionTo("/greet")?.headers.authorization).toBe("Bearer t0k");
		expect(ws.rows).toEqual([expect.objectContaining({ method: "WEBSOCKET", url: `ws://${host}/greet`, status: 101, outcome: "done", itemCount: 2, sentCount: 2, closeCode: 4001, requestBytes: 10, responseBytes: 9, transport: "ws" })]);
	});

	it("waits for the server at each wait-for-server, times messages from the open, and closes with 1000 after the last wait", async () => {
		// The clock moves only when the spec moves it: the upgrade takes no time on it.
		const ws = websocket("```http\nWS ws://{{host}}/wait\n\none\n=== wait-for-server\ntwo\n=== wait-for-server\n```");
		await until(() => connectionTo("/wait")?.received.length === 1);
		const seen = connectionTo("/wait") as SeenConnection;
		ws.timers.advance(3);
		seen.socket.send("first answer");
		await until(() => seen.received.length === 2);
		expect(seen.received).toEqual(["one", "two"]);
		ws.timers.advance(5);
		seen.socket.send("second answer");
		const run = await ws.running;
		expect(shown(run)).toEqual([
			["sent", 0, false, "one", 3],
			["received", 3, false, "first answer", 12],
			["sent", 3, false, "two", 3],
			["received", 8, false, "second answer", 13],
		]);
		expect(run).toMatchObject({ state: "done", close: { code: 1000, why: "steps_done" }, timing: { handshake: 0, firstMessage: 3, total: 8 } });
		await until(() => seen.closed !== null);
		expect(seen.closed).toBe(1000);
	});

	it("sends a `< file` message as one binary message", async () => {
		const files: BodyFiles = { read: (path) => Promise.resolve(path === "ping.bin" ? new Uint8Array([7, 0, 7]) : null) };
		const ws = websocket("```http\nWS ws://{{host}}/bin\n\n< ./ping.bin\n=== wait-for-server\n```", { files });
		await until(() => connectionTo("/bin")?.received.length === 1);
		connectionTo("/bin")?.socket.send("got it");
		const run = await ws.running;
		expect(connectionTo("/bin")?.received).toEqual(["070007"]);
		expect(shown(run)[0]).toEqual(["sent", 0, true, Buffer.from([7, 0, 7]).toString("base64"), 3]);
	});

	it("fails before connecting when a `< file` message has no file", async () => {
		const before = server.connections.length;
		const run = await websocket("```http\nWS ws://{{host}}/bin\n\n< ./missing.bin\n```", { files: { read: () => Promise.resolve(null) } }).running;
		expect(run).toMatchObject({ state: "failed", error: { code: "body_file_missing" } });
		expect(server.connections.length).toBe(before);
	});

	it("max_messages=N keeps exactly N and closes with 1000", async () => {
		const run = await websocket("```http max_messages=2\nWS ws://{{host}}/flood\n```").running;
		expect([run.state, run.close, run.messages.map((m) => m.data)]).toEqual(["done", { code: 1000, reason: "", why: "max_messages" }, ["m1", "m2"]]);
		await until(() => connectionTo("/flood")?.closed === 1000);
	});

	it("Stop closes with 1000, ends cancelled and keeps what arrived", async () => {
		const stop = new AbortController();
		const ws = websocket("```http\nWS ws://{{host}}/stop\n\nping\n```", { signal: stop.signal });
		await until(() => connectionTo("/stop")?.received.length === 1);
		connectionTo("/stop")?.socket.send("pong");
		await until(() => ws.count("received") === 1);
		stop.abort();
		const run = await ws.running;
		expect(run).toMatchObject({ state: "cancelled", error: { code: "cancelled" }, close: { code: 1000, why: "cancelled" }, counts: { sent: 1, received: 1 } });
		await until(() => connectionTo("/stop")?.closed === 1000);
	});

	it("drops the socket when the server does not answer the close within the grace", async () => {
		const stop = new AbortController();
		const ws = websocket("```http\nWS ws://{{host}}/deaf\n```", { signal: stop.signal });
		await until(() => ws.latest()?.head !== undefined);
		stop.abort();
		ws.timers.advance(499);
		let ended = false;
		void ws.running.then(() => (ended = true));
		await new Promise((r) => setImmediate(r));
		expect(ended).toBe(false);
		ws.timers.advance(1);
		expect(await ws.running).toMatchObject({ state: "cancelled", close: { code: 1000, why: "cancelled" } });
	});

	it("timeout= bounds each silence once open: it closes with 1000 and ends done", async () => {
		const ws = websocket("```http timeout=100\nWS ws://{{host}}/quiet\n```");
		await until(() => ws.latest()?.head !== undefined);
		ws.timers.advance(100);
		expect(await ws.running).toMatchObject({ state: "done", close: { code: 1000, why: "timeout" } });
		await until(() => connectionTo("/quiet")?.closed === 1000);
	});

	it("timeout= bounds the handshake: no upgrade in time ends it cancelled with [timeout]", async () => {
		const silent = await startSilentServer();
		try {
			const ws = websocket(`\`\`\`http timeout=100\nWS ${silent.url.replace(/^http/, "ws")}/\n\`\`\``);
			// The handshake's timer is set once the block's messages are read: move the clock after that.
			await until(() => ws.timers.pending() > 0);
			ws.timers.advance(100);
			const run = await ws.running;
			expect(run).toMatchObject({ state: "cancelled", error: { code: "timeout" }, close: { why: "timeout" } });
			expect(run.head).toBeUndefined();
		} finally {
			await silent.close();
		}
	});

	it("duration= ends it however busy it is", async () => {
		const ws = websocket("```http duration=50 timeout=1000\nWS ws://{{host}}/busy\n```");
		await until(() => ws.latest()?.head !== undefined);
		const seen = connectionTo("/busy") as SeenConnection;
		for (const n of [1, 2]) {
			ws.timers.advance(20);
			seen.socket.send(`m${n}`);
			await until(() => ws.count("received") === n);
		}
		ws.timers.advance(10);
		const run = await ws.running;
		expect([run.state, run.close?.why, run.messages.map((m) => m.data)]).toEqual(["done", "duration", ["m1", "m2"]]);
	});

	it("offers the panel a send while open, kept as a sent message, refused once ended", async () => {
		const ws = websocket("```http\nWS ws://{{host}}/panel\n```");
		await until(() => ws.latest()?.send !== undefined);
		const send = ws.latest()?.send as (text: string) => boolean;
		expect(send("typed")).toBe(true);
		await until(() => connectionTo("/panel")?.received.length === 1);
		connectionTo("/panel")?.socket.close(1000, "");
		const run = await ws.running;
		expect(run.messages.map((m) => [m.direction, m.data])).toEqual([["sent", "typed"]]);
		expect(run.send).toBeUndefined();
		expect(send("too late")).toBe(false);
	});

	it("keeps a refused upgrade as the http response it is", async () => {
		const run = await websocket("```http\nWS ws://{{host}}/refuse\n```").running;
		expect([run.state, run.head?.status, new TextDecoder().decode(run.body), run.close?.why]).toEqual(["done", 401, "who are you?", "server_closed"]);
	});

	it("fails with [stream_broken] when the connection drops without a close frame, keeping what arrived", async () => {
		const run = await websocket("```http\nWS ws://{{host}}/drop\n```").running;
		expect(run).toMatchObject({ state: "failed", error: { code: "stream_broken" }, close: { code: 1006, why: "failed" } });
		expect(run.messages.map((m) => m.data)).toEqual(["one"]);
	});

	it("fails with [connect_failed] when nothing listens", async () => {
		const port = await refusedPort();
		const run = await websocket(`\`\`\`http\nWS ws://127.0.0.1:${port}/\n\`\`\``).running;
		expect(run).toMatchObject({ state: "failed", error: { code: "connect_failed" } });
		expect(run.head).toBeUndefined();
	});
});

describe("transports", () => {
	// `ws`'s class has the browser's WebSocket interface (Node 20 has no global one).
	const browser = createBrowserWsTransport(WsModule as unknown as typeof WebSocket);

	it("uses ws where the host gives none (Node)", async () => {
		const run = await websocket("```http\nWS ws://{{host}}/greet\n```", { noTransport: true }).running;
		expect([run.state, run.transport]).toEqual(["done", "ws"]);
	});

	it("asks first where the transport cannot send the block's headers: [headers_not_sent], nothing connected", async () => {
		const before = server.connections.length;
		const run = await websocket("```http\nWS ws://{{host}}/greet\nAuthorization: Bearer {{token}}\nX-Trace: 1\n```", { transport: browser }).running;
		expect(run).toMatchObject({ state: "failed", error: { code: "headers_not_sent", detail: "Authorization, X-Trace" } });
		expect(server.connections.length).toBe(before);
	});

	it("runs without them when the user confirmed, and says which were dropped", async () => {
		const run = await websocket("```http\nWS ws://{{host}}/greet\nAuthorization: Bearer {{token}}\n```", { transport: browser, dropHeaders: true }).running;
		expect(run).toMatchObject({ state: "done", transport: "browser", droppedHeaders: ["Authorization"] });
		expect(connectionTo("/greet")?.headers.authorization).toBeUndefined();
	});
});

describe("a block that cannot start", () => {
	it("fails with its reason, before connecting", async () => {
		const before = server.connections.length;
		const run = await websocket("```http\nWS ws://{{nowhere}}/x\n```").running;
		expect(run).toMatchObject({ kind: "websocket", state: "failed", error: { code: "unresolved_reference" }, messages: [] });
		expect(server.connections.length).toBe(before);
	});
});
