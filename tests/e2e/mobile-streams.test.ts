import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { eventually } from "./support/eventually";
import { launchPluginHost, type Host } from "./support/host";

jest.setTimeout(60_000);

/**
 * Stream blocks in the host's mobile emulation (Platform.isMobileApp, no Node, the default
 * transport: Obsidian's requestUrl, which cannot stream), with the production main.js: SSE runs
 * through the browser's fetch and says what it cannot do, and a WebSocket with headers asks
 * before it runs without them (docs/streams.md, "On mobile").
 */
let host: Host;
let sse: http.Server;
let wss: WebSocketServer;
let base = "";
let wsUrl = "";
/** The event stream held open by /live, until the test sends its second event. */
let live: http.ServerResponse | null = null;
const handshakes: http.IncomingHttpHeaders[] = [];
const sockets: WebSocket[] = [];
const panel = () => host.page.locator(".rb-editor-panel .rb-panel");
const messages = () => panel().locator(".rb-stream-messages");

beforeAll(async () => {
	sse = http.createServer((req, res) => {
		// The page is served from another port: fetch reads the stream only where the server allows the origin.
		const cors = req.url === "/no-cors" ? {} : { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*" };
		if (req.method === "OPTIONS") {
			res.writeHead(204, cors).end();
			return;
		}
		res.writeHead(200, { ...cors, "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
		res.write("id: 1\ndata: first\n\n");
		if (req.url === "/live") live = res;
		else res.end();
	});
	await new Promise<void>((r) => sse.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(sse.address() as AddressInfo).port}`;

	wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
	wss.on("connection", (socket, req) => {
		sockets.push(socket);
		handshakes.push(req.headers);
		socket.on("message", (data: Buffer) => socket.send(`echo: ${data.toString("utf8")}`));
	});
	await new Promise<void>((r) => wss.on("listening", () => r()));
	wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/chat`;

	host = await launchPluginHost({ mobile: true });
});

afterAll(async () => {
	await host?.close();
	live?.destroy();
	for (const s of sockets) s.terminate();
	await new Promise((r) => wss?.close(r));
	await new Promise((r) => sse?.close(r));
});

async function run(markdown: string, firstLine: string): Promise<void> {
	await host.api((h, md) => h.openEditor(md, "mobile.md"), markdown);
	await host.page.locator(".cm-line", { hasText: firstLine }).click();
	await host.page.keyboard.press("Control+Enter");
}

describe("stream blocks in the mobile emulation", () => {
	it("an SSE block streams through fetch: each event is shown as it arrives, while the stream is open", async () => {
		await run(`\`\`\`http alias=live\nSSE ${base}/live\n\`\`\``, "SSE");
		await panel().locator('.rb-stream[data-state="open"]').waitFor();
		await messages().locator(".rb-stream-message", { hasText: "first" }).waitFor();
		// Still open, one event shown; the next appears when the server sends it.
		await expect(messages().locator(".rb-stream-message").count()).resolves.toBe(1);
		await eventually(() => expect(live).not.toBeNull());
		live?.end("id: 2\ndata: second\n\n");
		await panel().locator('.rb-stream[data-state="closed"]').waitFor();
		await expect(messages().locator(".rb-stream-message .rb-stream-data").allTextContents()).resolves.toEqual(["first", "second"]);
	});

	it("an SSE server without CORS: the block says why it cannot stream", async () => {
		await run(`\`\`\`http alias=refused\nSSE ${base}/no-cors\n\`\`\``, "SSE");
		await panel().locator(".rb-badge.rb-error").waitFor();
		await expect(panel().locator(".rb-badge.rb-error").textContent()).resolves.toBe(
			"Could not stream through fetch: the server must allow the app's origin (CORS: Access-Control-Allow-Origin), or it could not be reached",
		);
	});

	it("a WebSocket block with headers says mobile sends none, and runs without them only when the user confirms from the block", async () => {
		await run(`\`\`\`http alias=chat\nWEBSOCKET ${wsUrl}\nAuthorization: Bearer s3cr3t\nX-Trace: 1\n\nhello\n\`\`\``, "WEBSOCKET");
		const notice = host.page.locator(".rb-editor-panel .rb-stream-no-headers");
		await expect(notice.locator(".rb-stream-no-headers-text").textContent()).resolves.toBe("On mobile the web socket sends no custom headers, so Authorization, X-Trace would not be sent.");
		// Run alone does not connect: the block says why, and the server saw nothing.
		await panel().locator(".rb-badge.rb-error").waitFor();
		await expect(panel().locator(".rb-badge.rb-error").textContent()).resolves.toBe("This WebSocket cannot send the block's headers here: run it without them from the block to confirm");
		expect(handshakes).toHaveLength(0);

		await notice.locator(".rb-stream-run-without").click();
		await messages().locator(".rb-stream-received", { hasText: "echo: hello" }).waitFor();
		expect(handshakes).toHaveLength(1);
		expect(handshakes[0].authorization).toBeUndefined();
		expect(handshakes[0]["x-trace"]).toBeUndefined();
		await panel().locator(".rb-run").click();
		await panel().locator('.rb-stream[data-state="closed"]').waitFor();
	});
});
