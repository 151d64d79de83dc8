import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { clickRun, launchDesktopHost, panelOf, stateOf, texts, waitFor, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(30_000);

/**
 * Stream blocks in the desktop host (production main.js as Obsidian loads it, `ws` and the node
 * transport), from the Run button of a note in Reading view, against servers started here.
 */
let host: DesktopHost;
let doc: Document;
let wss: WebSocketServer;
let sse: http.Server;
const sockets: WebSocket[] = [];
let closes = 0;

beforeAll(async () => {
	wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
	wss.on("connection", (socket, req) => {
		sockets.push(socket);
		// The desktop sends the block's handshake headers: echoed back to prove it.
		socket.send(`room ${String(req.headers["x-room"])}`);
		socket.on("message", (data: Buffer) => socket.send(`echo: ${data.toString("utf8")}`));
		socket.on("close", () => closes++);
	});
	await new Promise<void>((r) => wss.on("listening", () => r()));
	sse = http.createServer((_req, res) => {
		res.writeHead(200, { "Content-Type": "text/event-stream" });
		res.write("event: tick\nid: 1\ndata: one\n\n");
		res.end("event: tock\nid: 2\ndata: two\n\n");
	});
	await new Promise<void>((r) => sse.listen(0, "127.0.0.1", r));
	const wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/chat`;
	const sseUrl = `http://127.0.0.1:${(sse.address() as AddressInfo).port}/events`;
	host = await launchDesktopHost();
	doc = host.document;
	await host.loadPlugin();
	host.page.renderReading(`\`\`\`http alias=chat\nWEBSOCKET ${wsUrl}\nX-Room: 7\n\nhello\n\`\`\`\n\n\`\`\`http alias=ticks\nSSE ${sseUrl}\n\`\`\``, "streams.md");
});

afterAll(async () => {
	await host?.close();
	for (const s of sockets) s.terminate();
	await new Promise((r) => wss?.close(r));
	await new Promise((r) => sse?.close(r));
});

const dataOf = (alias: string) => texts(panelOf(doc, alias), ".rb-stream-message .rb-stream-data");

describe("stream blocks in the desktop host", () => {
	it("a WebSocket block sends its headers and message, shows the echo, and Stop closes the socket", async () => {
		await clickRun(doc, "chat");
		await waitFor(() => `echo in ${dataOf("chat").join(" | ")}`, () => dataOf("chat").includes("echo: hello"));
		expect(dataOf("chat")).toEqual(expect.arrayContaining(["room 7", "hello", "echo: hello"]));
		await clickRun(doc, "chat", true);
		await waitFor(() => `the server to see the close (${closes})`, () => closes === 1);
		// The stream panel draws on the next frame.
		await waitFor("the stream panel to show closed", () => panelOf(doc, "chat").querySelector(".rb-stream")?.getAttribute("data-state") === "closed");
	});

	it("an SSE block lists named events with their ids", async () => {
		await clickRun(doc, "ticks");
		await stateOf(doc, "ticks", "done");
		await waitFor(() => `two events in ${dataOf("ticks").join(" | ")}`, () => dataOf("ticks").length === 2);
		expect(dataOf("ticks")).toEqual(["one", "two"]);
		expect(texts(panelOf(doc, "ticks"), ".rb-stream-event").join(" ")).toMatch(/tick.*tock/);
		expect(texts(panelOf(doc, "ticks"), ".rb-stream-id").join(" ")).toMatch(/1.*2/);
	});
});
