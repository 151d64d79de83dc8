import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { eventually } from "./support/eventually";
import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(60_000);

/**
 * Stream blocks end to end in the Chromium host (the built main.js, the browser's WebSocket and
 * fetch): a WebSocket block against a `ws` echo server and an SSE block against an event server,
 * both started here, shown in the stream panel's Messages tab.
 */
let host: Host;
let wss: WebSocketServer;
let sse: http.Server;
let wsUrl = "";
let sseUrl = "";
const serverSaw: { closes: number; sockets: WebSocket[] } = { closes: 0, sockets: [] };
const panel = () => host.page.locator(".rb-editor-panel .rb-panel");
const messages = () => panel().locator(".rb-stream-messages");

beforeAll(async () => {
	wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
	wss.on("connection", (socket) => {
		serverSaw.sockets.push(socket);
		socket.on("message", (data: Buffer) => socket.send(`echo: ${data.toString("utf8")}`));
		socket.on("close", () => serverSaw.closes++);
	});
	await new Promise<void>((r) => wss.on("listening", () => r()));
	wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/chat`;

	sse = http.createServer((req, res) => {
		// The page is served from another port: the browser's fetch needs CORS to read the stream.
		const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*" };
		if (req.method === "OPTIONS") {
			res.writeHead(204, cors);
			res.end();
			return;
		}
		res.writeHead(200, { ...cors, "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
		res.write("event: tick\nid: 1\ndata: {\"n\":1}\n\n");
		res.end("event: tock\nid: 2\ndata: second\n\n");
	});
	await new Promise<void>((r) => sse.listen(0, "127.0.0.1", r));
	sseUrl = `http://127.0.0.1:${(sse.address() as AddressInfo).port}/events`;

	host = await launchPluginHost({ userToml: '[general]\ntransport = "fetch"\n' });
});

afterAll(async () => {
	await host?.close();
	for (const s of serverSaw.sockets) s.terminate();
	await new Promise((r) => wss?.close(r));
	await new Promise((r) => sse?.close(r));
});

describe("stream blocks in the Chromium host", () => {
	it("a WebSocket block sends, shows the echoes, sends from the box, and Stop closes the socket", async () => {
		await host.api((h, md) => h.openEditor(md), `\`\`\`http alias=chat\nWEBSOCKET ${wsUrl}\n\nhello\n\`\`\``);
		await host.page.locator(".cm-line", { hasText: "WEBSOCKET" }).click();
		await host.page.keyboard.press("Control+Enter");
		await panel().locator('.rb-stream[data-state="open"]').waitFor();
		await messages().locator(".rb-stream-received", { hasText: "echo: hello" }).waitFor();
		// The http tabs give way to the stream panel; the toolbar keeps Stop.
		await expect(panel().locator(":scope > .rb-tabs").isVisible()).resolves.toBe(false);
		await expect(panel().locator(".rb-run-label").textContent()).resolves.toBe("Stop");

		await messages().locator(".rb-stream-send-input").fill("more");
		await messages().locator(".rb-stream-send-input").press("Enter");
		await messages().locator(".rb-stream-received", { hasText: "echo: more" }).waitFor();
		const texts = await messages().locator(".rb-stream-message .rb-stream-data").allTextContents();
		expect(texts).toEqual(["hello", "echo: hello", "more", "echo: more"]);

		await panel().locator(".rb-run").click();
		await panel().locator('.rb-stream[data-state="closed"]').waitFor();
		await eventually(() => expect(serverSaw.closes).toBe(1));
		// What arrived is kept after the end.
		await expect(messages().locator(".rb-stream-message").count()).resolves.toBe(4);
	});

	it("an SSE block lists named events with their ids until the server ends the stream", async () => {
		await host.api((h, md) => h.openEditor(md, "sse.md"), `\`\`\`http alias=ticks\nSSE ${sseUrl}\n\`\`\``);
		await host.page.locator(".cm-line", { hasText: "SSE" }).click();
		await host.page.keyboard.press("Control+Enter");
		await panel().locator('.rb-stream[data-state="closed"]').waitFor();
		await eventually(() => expect(messages().locator(".rb-stream-message").count()).resolves.toBe(2));
		const rows = messages().locator(".rb-stream-message");
		await expect(rows.nth(0).locator(".rb-stream-event").textContent()).resolves.toContain("tick");
		await expect(rows.nth(0).locator(".rb-stream-id").textContent()).resolves.toContain("1");
		await expect(rows.nth(0).locator(".rb-stream-data").textContent()).resolves.toContain('"n": 1');
		await expect(rows.nth(1).locator(".rb-stream-event").textContent()).resolves.toContain("tock");
		await expect(rows.nth(1).locator(".rb-stream-data").textContent()).resolves.toBe("second");
		// No send box: SSE only listens.
		await expect(messages().locator(".rb-stream-send").count()).resolves.toBe(0);
	});
});
