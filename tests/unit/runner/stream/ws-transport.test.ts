import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tlsFromSettings } from "../../../../src/runner/http/tls-options";
import WsModule from "ws";
import type { ResponseHead } from "../../../../src/runner/transport";
import { createBrowserWsTransport, createWsTransport, defaultWebsocketTransport, type WebsocketTransport, type WsConnection, type WsEvents, type WsOpenOptions } from "../../../../src/runner/stream/ws-transport";
import { refusedPort } from "../../../support/servers";
import { until } from "../../../support/until";
import { startWsServer, type WsTestServer } from "../../../support/ws-server";

jest.setTimeout(20_000);

let server: WsTestServer;
let secure: WsTestServer;

/** What each path does once the upgrade is accepted. */
function scenario(socket: WsModule, path: string): void {
	if (path === "/echo") socket.on("message", (data, isBinary) => socket.send(data as Buffer, { binary: isBinary }));
	if (path === "/greet") {
		socket.send("héllo");
		socket.send(Buffer.from([0, 1, 2, 255]));
		socket.close(4001, "bye for now");
	}
}

beforeAll(async () => {
	server = await startWsServer(scenario);
	secure = await startWsServer(scenario, { tls: true });
});

afterAll(async () => {
	await server.close();
	await secure.close();
});

type Event = ["open", ResponseHead] | ["message", string | Uint8Array] | ["refused", ResponseHead, string] | ["closed", number, string] | ["error", string];

/** Opens a connection and records its events in order. */
function connect(transport: WebsocketTransport, options: Partial<WsOpenOptions> & { url: string }): { events: Event[]; connection: WsConnection; kinds(): string[] } {
	const events: Event[] = [];
	const handlers: WsEvents = {
		open: (head) => events.push(["open", head]),
		message: (data) => events.push(["message", data]),
		refused: (head, body) => events.push(["refused", head, new TextDecoder().decode(body)]),
		closed: (code, reason) => events.push(["closed", code, reason]),
		error: (message) => events.push(["error", message]),
	};
	const connection = transport.open({ headers: [], protocols: [], ...options }, handlers);
	return { events, connection, kinds: () => events.map((e) => e[0]) };
}

const last = (s: WsTestServer) => s.connections[s.connections.length - 1];

describe("the ws transport", () => {
	const ws = createWsTransport();

	it("is the Node transport that sends the block's headers", () => {
		expect([ws.name, ws.sendsHeaders]).toEqual(["ws", true]);
	});

	it("sends the block's headers (repeats joined), offers the sub-protocols, and opens with the 101's head", async () => {
		const c = connect(ws, { url: `${server.url}/echo`, headers: [["Authorization", "Bearer t0k"], ["X-Tag", "a"], ["X-Tag", "b"]], protocols: ["graphql-transport-ws"] });
		await until(() => c.events.length > 0);
		const [kind, head] = c.events[0];
		if (kind !== "open") throw new Error(`expected open first, got ${kind}`);
		expect(head).toMatchObject({ status: 101, statusText: "Switching Protocols", url: `${server.url}/echo`, redirects: 0 });
		expect(head.headers).toContainEqual(["Sec-WebSocket-Protocol", "graphql-transport-ws"]);
		expect(last(server).headers).toMatchObject({ authorization: "Bearer t0k", "x-tag": "a, b", "sec-websocket-protocol": "graphql-transport-ws" });
		c.connection.close(1000, "");
		await until(() => c.kinds().includes("closed"));
	});

	it("sends text as text and bytes as binary, and hands back text as a string and binary as bytes", async () => {
		const c = connect(ws, { url: `${server.url}/echo` });
		await until(() => c.kinds().includes("open"));
		c.connection.send("ça va");
		c.connection.send(new Uint8Array([9, 8, 7]));
		await until(() => c.events.filter(([k]) => k === "message").length === 2);
		expect(last(server).received).toEqual(["ça va", "090807"]);
		expect(c.events.filter(([k]) => k === "message").map(([, data]) => data)).toEqual(["ça va", new Uint8Array([9, 8, 7])]);
		c.connection.close(1000, "");
		await until(() => c.kinds().includes("closed"));
	});

	it("reads the server's close frame: its code and reason, after every message", async () => {
		const c = connect(ws, { url: `${server.url}/greet` });
		await until(() => c.kinds().includes("closed"));
		expect(c.events.slice(1)).toEqual([["message", "héllo"], ["message", new Uint8Array([0, 1, 2, 255])], ["closed", 4001, "bye for now"]]);
	});

	it("closes with the code and reason given; terminate drops the socket without a close frame", async () => {
		const polite = connect(ws, { url: `${server.url}/echo` });
		await until(() => polite.kinds().includes("open"));
		const politeSeen = last(server);
		polite.connection.close(4000, "done here");
		await until(() => politeSeen.closed !== null);
		expect(politeSeen.closed).toBe(4000);
		const rude = connect(ws, { url: `${server.url}/echo` });
		await until(() => rude.kinds().includes("open"));
		const rudeSeen = last(server);
		rude.connection.terminate();
		await until(() => rudeSeen.closed !== null);
		expect(rudeSeen.closed).toBe(1006);
	});

	it("gives a refused upgrade as the http response it is, status, headers and body", async () => {
		const c = connect(ws, { url: `${server.url}/refuse` });
		await until(() => c.kinds().includes("refused"));
		const [, head, body] = c.events.find(([k]) => k === "refused") as ["refused", ResponseHead, string];
		expect([head.status, head.statusText, body]).toEqual([401, "Unauthorized", "who are you?"]);
		expect(head.headers).toContainEqual(["Content-Type", "text/plain"]);
		expect(c.kinds()).not.toContain("open");
	});

	it("asks the jar for the handshake's Cookie (as http) unless the block wrote one, and stores the 101's Set-Cookie", async () => {
		const stored: Array<[string, readonly string[]]> = [];
		const cookies = { header: (url: string) => `jar=${url}`, store: (url: string, set: readonly string[]) => void stored.push([url, set]) };
		const url = `${server.url}/echo`;
		const fromJar = connect(ws, { url, cookies });
		await until(() => fromJar.kinds().includes("open"));
		expect(last(server).headers.cookie).toBe(`jar=${url.replace(/^ws/, "http")}`);
		expect(stored).toEqual([[url.replace(/^ws/, "http"), ["ws=1; Path=/"]]]);
		const own = connect(ws, { url, cookies, headers: [["cookie", "mine=1"]] });
		await until(() => own.kinds().includes("open"));
		expect(last(server).headers.cookie).toBe("mine=1");
		for (const c of [fromJar, own]) c.connection.close(1000, "");
	});

	it("reports a refused connection as an error, then a close without a frame", async () => {
		const port = await refusedPort();
		const c = connect(ws, { url: `ws://127.0.0.1:${port}/` });
		await until(() => c.kinds().includes("closed"));
		expect(c.events).toEqual([["error", expect.stringContaining("ECONNREFUSED") as string], ["closed", 1006, ""]]);
	});

	it.each([
		["an invalid URL", createWsTransport(), "ws://exa mple/"],
		[
			"ws that cannot load",
			createWsTransport({}, () => {
				throw new Error("Cannot find module 'ws'");
			}),
			"ws://127.0.0.1:1/",
		],
	])("never throws on %s: the failure is an error event, and the connection does nothing", async (_what, transport, url) => {
		const c = connect(transport, { url });
		expect(c.events).toEqual([]);
		await until(() => c.events.length > 0);
		expect(c.kinds()).toEqual(["error"]);
		expect(() => (c.connection.send("x"), c.connection.close(1000, ""), c.connection.terminate())).not.toThrow();
	});

	it("refuses a self-signed certificate by default and accepts it when told to", async () => {
		const strict = connect(ws, { url: `${secure.url}/greet` });
		await until(() => strict.kinds().includes("error"));
		expect(strict.kinds()).not.toContain("open");
		const lenient = connect(createWsTransport({ rejectUnauthorized: false }), { url: `${secure.url}/greet` });
		await until(() => lenient.kinds().includes("closed"));
		expect(lenient.events.at(-1)).toEqual(["closed", 4001, "bye for now"]);
	});

	it("trusts a wss server's CA of [tls.*], read before the socket is made; a missing file is an error, a close before then a dropped connection", async () => {
		const ca = readFileSync(join(__dirname, "../../../support/tls/cert.pem"), "utf8");
		const files: Record<string, string> = { "ca.pem": ca };
		const settings = { "127.0.0.1": { ca: "ca.pem", verify: true }, localhost: { ca: "none.pem", verify: true } };
		let release = () => undefined as void;
		const held = new Promise<void>((r) => (release = r));
		const read = async (path: string) => (await held, files[path] ?? null);
		const transport = createWsTransport({ tls: tlsFromSettings(() => settings, read, () => undefined) });
		const early = connect(transport, { url: `${secure.url}/greet` });
		early.connection.close(1000, "");
		const trusted = connect(transport, { url: `${secure.url}/greet` });
		const missing = connect(transport, { url: secure.url.replace("127.0.0.1", "localhost") + "/greet" });
		expect([early.events, trusted.events, missing.events]).toEqual([[["closed", 1006, ""]], [], []]);
		release();
		await until(() => trusted.kinds().includes("closed") && missing.kinds().includes("error"));
		expect(trusted.events.at(-1)).toEqual(["closed", 4001, "bye for now"]);
		expect(missing.events).toEqual([["error", 'no file "none.pem" (user.toml [tls."localhost:' + new URL(secure.url).port + '"])']]);
		expect(early.events).toEqual([["closed", 1006, ""]]);
	});
});

// Node 20 has no global WebSocket; `ws` implements the same WHATWG interface (onopen…, binaryType), as jsdom's does on top of it.
describe("the browser's WebSocket", () => {
	const browser = createBrowserWsTransport(WsModule as unknown as typeof WebSocket);

	it("is the transport that sends no headers", () => {
		expect([browser.name, browser.sendsHeaders]).toEqual(["browser", false]);
	});

	it("opens with a 101 it cannot see the headers of, reads text and binary, and the server's close", async () => {
		const c = connect(browser, { url: `${server.url}/greet`, headers: [["Authorization", "Bearer t0k"]] });
		await until(() => c.kinds().includes("closed"));
		expect(c.events[0]).toEqual(["open", { status: 101, statusText: "Switching Protocols", httpVersion: "1.1", headers: [], url: `${server.url}/greet`, redirects: 0 }]);
		expect(c.events.slice(1)).toEqual([["message", "héllo"], ["message", new Uint8Array([0, 1, 2, 255])], ["closed", 4001, "bye for now"]]);
		expect(last(server).headers.authorization).toBeUndefined();
	});

	it("sends what it is given and closes with the code given", async () => {
		const c = connect(browser, { url: `${server.url}/echo` });
		await until(() => c.kinds().includes("open"));
		const seen = last(server);
		c.connection.send("hi");
		await until(() => c.kinds().includes("message"));
		c.connection.close(4000, "done");
		await until(() => seen.closed !== null);
		expect([seen.received, seen.closed]).toEqual([["hi"], 4000]);
	});

	it("says only that the connection failed, as a browser does", async () => {
		const port = await refusedPort();
		const c = connect(browser, { url: `ws://127.0.0.1:${port}/` });
		await until(() => c.kinds().includes("closed"));
		expect(c.events[0]).toEqual(["error", "the WebSocket connection failed"]);
	});

	it("never throws on an invalid URL: the failure is an error event", async () => {
		const c = connect(browser, { url: "http://not a ws url" });
		await until(() => c.events.length > 0);
		expect(c.kinds()).toEqual(["error"]);
	});
});

describe("the default transport", () => {
	it("is ws where Node runs", () => {
		expect(defaultWebsocketTransport()?.name).toBe("ws");
	});
});
