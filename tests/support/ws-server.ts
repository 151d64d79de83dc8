/**
 * A real `ws` server on 127.0.0.1 for the websocket specs. Each connection is handed to the spec's
 * `scenario` with its path; the server records what a client did to it (handshake headers, the
 * messages it sent, how it closed), so a spec can assert what reached the wire. `/refuse` answers
 * the upgrade with a 401 and a body, as an API that wants a token does.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";

export interface SeenConnection {
	path: string;
	headers: IncomingHttpHeaders;
	/** Text as text, binary as hex. */
	received: string[];
	/** The close code the server saw (1006: the client dropped the socket), null while open. */
	closed: number | null;
	socket: WebSocket;
}

export interface WsTestServer {
	/** ws://127.0.0.1:port */
	url: string;
	connections: SeenConnection[];
	close(): Promise<void>;
}

/** Starts the server; `tls` serves wss:// with the self-signed certificate of tests/support/tls. */
export async function startWsServer(scenario: (socket: WebSocket, path: string) => void, options: { tls?: boolean } = {}): Promise<WsTestServer> {
	const connections: SeenConnection[] = [];
	const tlsDir = path.join(__dirname, "tls");
	const server: Server = options.tls
		? createTlsServer({ key: readFileSync(path.join(tlsDir, "key.pem")), cert: readFileSync(path.join(tlsDir, "cert.pem")) })
		: createServer((_req, res) => res.end());
	const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => protocols.values().next().value ?? false });
	wss.on("headers", (headers) => headers.push("Set-Cookie: ws=1; Path=/"));
	server.on("upgrade", (req, socket: Duplex, head: Buffer) => {
		if (req.url === "/refuse") {
			socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\nwho are you?");
			return;
		}
		wss.handleUpgrade(req, socket, head, (ws) => {
			const seen: SeenConnection = { path: req.url ?? "/", headers: req.headers, received: [], closed: null, socket: ws };
			connections.push(seen);
			ws.on("message", (data: Buffer, isBinary) => seen.received.push(data.toString(isBinary ? "hex" : "utf8")));
			ws.on("close", (code) => (seen.closed = code));
			scenario(ws, seen.path);
		});
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	const port = (server.address() as AddressInfo).port;
	return {
		url: `${options.tls ? "wss" : "ws"}://127.0.0.1:${port}`,
		connections,
		close: async () => {
			for (const c of wss.clients) c.terminate();
			wss.close();
			server.closeAllConnections();
			await new Promise((r) => server.close(r));
		},
	};
}
