/**
 * A block's own client certificate (httpyac's `ClientCert:`): read beside the note, presented by
 * the real node transport to a server that asks for one (mutual TLS), in place of user.toml's;
 * `# @no-client-cert`; never to another origin; refused by the transports that cannot present it.
 * Certificates: tests/support/tls (the server's `cert.pem`, the block's `client-*`).
 */
import { readFileSync } from "node:fs";
import type { RequestListener } from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import WsClient, { WebSocketServer } from "ws";
import { parseNote, type HttpNoteBlock } from "../../../../src/blocks";
import { readResult } from "../../../../src/runner/block-runners";
import { cacheKey } from "../../../../src/runner/cache-key";
import type { BodyFiles } from "../../../../src/runner/file-parts";
import { withClientTls } from "../../../../src/runner/http/client-cert-files";
import { createBrowserWsTransport } from "../../../../src/runner/stream/ws-transport";
import { FetchTransport } from "../../../../src/runner/http/fetch-transport";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { tlsFromSettings } from "../../../../src/runner/http/tls-options";
import { prepareRequest } from "../../../../src/runner/prepare";
import { requestForFile, type PreparedRequest } from "../../../../src/runner/request";
import type { BlockResult } from "../../../../src/runner/result";
import { runBlocks } from "../../../../src/runner/run-note";
import type { TransportOutcome } from "../../../../src/runner/transport";
import { parseSettings } from "../../../../src/settings/user-settings";

jest.setTimeout(30_000);

const TLS_DIR = join(__dirname, "../../../support/tls");
const pem = (name: string) => readFileSync(join(TLS_DIR, name), "utf8");

/** The test certificates as a vault's files, at its root; every read is noted. */
function tlsVault(): BodyFiles & { reads: string[] } {
	const reads: string[] = [];
	return {
		reads,
		read: (path) => {
			reads.push(path);
			try {
				return Promise.resolve(new Uint8Array(readFileSync(join(TLS_DIR, path))));
			} catch {
				return Promise.resolve(null);
			}
		},
	};
}

function prepared(text: string, env: Record<string, string> = {}): PreparedRequest {
	const block = parseNote(`\`\`\`http\n${text}\n\`\`\``)[0] as HttpNoteBlock;
	const p = prepareRequest(block, { env, aliases: new Set(), result: () => undefined, read: readResult });
	if (!p.ok) throw new Error(p.error.message);
	return p.request;
}

/** Prepared and read as a run reads it, for a note at `notePath`. */
async function certified(text: string, notePath = "api.md", files: BodyFiles = tlsVault()): Promise<PreparedRequest> {
	const read = await withClientTls(prepared(text), files, notePath);
	if (!read.ok) throw new Error(read.error.message);
	return read.request;
}

/** A server that asks for a client certificate and says whose it got (`verify`: only ones it trusts). */
async function askingServer(verify: boolean, handler?: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
	const server = https.createServer({ key: pem("key.pem"), cert: pem("cert.pem"), ca: [pem("cert.pem"), pem("client-cert.pem")], requestCert: true, rejectUnauthorized: verify }, (req, res) => {
		if (handler) return handler(req, res);
		const peer = (req.socket as TLSSocket).getPeerCertificate();
		res.end(JSON.stringify({ client: peer.subject?.CN ?? null }));
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return { url: `https://localhost:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** A node transport trusting the test servers, with user.toml's `[tls."localhost"]` (the server's own certificate as the client's, unless `toml` says otherwise). */
function nodeTransport(extra = "") {
	const parsed = parseSettings(`[tls."localhost"]\nca = "cert.pem"\n${extra}`);
	if (!parsed.ok || parsed.errors.length > 0) throw new Error(JSON.stringify(parsed.errors));
	const read = (path: string) => Promise.resolve(pem(path));
	return createNodeTransport({ tls: tlsFromSettings(() => parsed.settings.tls, read, () => undefined) });
}

const whose = (o: TransportOutcome) => (o.kind === "done" ? (JSON.parse(new TextDecoder().decode(o.body)) as { client: string | null }).client : o);

let asking: { url: string; close(): Promise<void> };
beforeAll(async () => {
	asking = await askingServer(true);
});
afterAll(() => asking.close());

describe("withClientTls", () => {
	it("reads the files a ClientCert names and keeps the passphrase", async () => {
		const files = tlsVault();
		const request = await certified("GET https://localhost/x\nClientCert: cert: client-cert.pem key: client-key-encrypted.pem passphrase: key-pass", "api.md", files);
		expect(request.headers.map(([n]) => n)).toEqual([]);
		expect(request.clientCert).toEqual({ cert: "client-cert.pem", key: "client-key-encrypted.pem", passphrase: "key-pass" });
		expect(request.clientTls).toEqual({ cert: pem("client-cert.pem"), key: pem("client-key-encrypted.pem"), passphrase: "key-pass" });
		const p12 = await certified("GET https://localhost/x\nX-ClientCert: pfx: ./client.p12 passphrase: p12-pass", "api.md", files);
		expect(p12.clientTls).toEqual({ pfx: new Uint8Array(readFileSync(join(TLS_DIR, "client.p12"))), passphrase: "p12-pass" });
		expect(files.reads).toEqual(["client-cert.pem", "client-key-encrypted.pem", "client.p12"]);
	});

	it("reads nothing for a plain http request, which has no handshake to present it in", async () => {
		const files = tlsVault();
		const request = await certified("GET http://localhost/x\nClientCert: pfx: client.p12", "api.md", files);
		expect(files.reads).toEqual([]);
		expect(request.clientTls).toBeUndefined();
		expect(request.headers).toEqual([]);
	});

	it("fails before sending when a file is missing or outside the vault, naming it", async () => {
		expect(await withClientTls(prepared("GET https://localhost/x\nClientCert: cert: client-cert.pem key: gone.pem"), tlsVault(), "notes/api.md")).toEqual({
			ok: false,
			error: { code: "cert_file_missing", message: 'No file "gone.pem" for the client certificate', detail: "looked for notes/gone.pem, gone.pem" },
		});
		expect(await withClientTls(prepared("GET https://localhost/x\nClientCert: pfx: ../../b.p12"), tlsVault(), "notes/api.md")).toEqual({
			ok: false,
			error: { code: "cert_file_outside", message: 'The client certificate file "../../b.p12" is outside the vault', detail: "write it relative to the note or to the vault root" },
		});
	});

	it("keeps a passphrase from a secret as its reference in the copy a vault file gets", () => {
		const block = parseNote("```http\nGET https://localhost/x\nClientCert: pfx: client.p12 passphrase: {{p12}}\n```")[0] as HttpNoteBlock;
		const p = prepareRequest(block, { env: { p12: "p12-pass" }, secretNames: new Set(["p12"]), aliases: new Set(), result: () => undefined, read: readResult });
		if (!p.ok) throw new Error(p.error.message);
		expect(p.request.clientCert).toEqual({ pfx: "client.p12", passphrase: "p12-pass" });
		expect(requestForFile(p.request).clientCert).toEqual({ pfx: "client.p12", passphrase: "{{p12}}" });
	});

	it("resolves references in the pseudo-header, and a bad one fails the block as it is written", () => {
		expect(prepared("GET https://localhost/x\nClientCert: pfx: {{dir}}/client.p12 passphrase: {{pass}}", { dir: "certs", pass: "p12-pass" }).clientCert).toEqual({ pfx: "certs/client.p12", passphrase: "p12-pass" });
		const block = parseNote("```http\nGET https://localhost/x\nClientCert: cert: client-cert.pem\n```")[0] as HttpNoteBlock;
		expect(prepareRequest(block, { env: {}, aliases: new Set(), result: () => undefined, read: readResult })).toMatchObject({ ok: false, error: { code: "invalid_block", message: expect.stringMatching(/^ClientCert: cert: needs its key:/) as unknown } });
	});
});

describe("a block's client certificate through the node transport", () => {
	const transport = nodeTransport('cert = "cert.pem"\nkey = "key.pem"\n');
	afterAll(() => transport.close());

	it("presents the block's certificate (PEM, an encrypted key, or PKCS #12) in place of user.toml's", async () => {
		expect(whose(await transport.send(await certified(`GET ${asking.url}/\nClientCert: cert: client-cert.pem key: client-key.pem`)))).toBe("runnable-blocks-client");
		expect(whose(await transport.send(await certified(`GET ${asking.url}/\nClientCert: cert: client-cert.pem key: client-key-encrypted.pem passphrase: key-pass`)))).toBe("runnable-blocks-client");
		expect(whose(await transport.send(await certified(`GET ${asking.url}/\nClientCert: pfx: client.p12 passphrase: p12-pass`)))).toBe("runnable-blocks-client");
		// Without one of its own, the request presents user.toml's (the server's own certificate, CN=localhost).
		expect(whose(await transport.send(await certified(`GET ${asking.url}/`)))).toBe("localhost");
	});

	it("fails with OpenSSL's reason when the passphrase is wrong", async () => {
		// A fresh transport: Node's agent pools by certificate, not by passphrase, so a connection made with the right one would be reused.
		const fresh = nodeTransport();
		const outcome = await fresh.send(await certified(`GET ${asking.url}/\nClientCert: pfx: client.p12 passphrase: wrong`));
		fresh.close();
		expect(outcome).toMatchObject({ kind: "failed", code: "request_failed" });
		expect(outcome.kind === "failed" ? outcome.detail : "").toMatch(/mac verify failure|bad decrypt/i);
	});

	it("# @no-client-cert presents no certificate, so a server that requires one refuses the handshake", async () => {
		const lenient = await askingServer(false);
		try {
			expect(whose(await transport.send(await certified(`# @no-client-cert\nGET ${lenient.url}/`)))).toBe(null);
			expect(whose(await transport.send(await certified(`GET ${lenient.url}/`)))).toBe("localhost");
		} finally {
			await lenient.close();
		}
		expect(await transport.send(await certified(`# @no-client-cert\nGET ${asking.url}/`))).toMatchObject({ kind: "failed" });
	});

	it("never presents the block's certificate to another origin a redirect leads to", async () => {
		const other = await askingServer(false);
		const redirecting = await askingServer(true, (_req, res) => {
			res.writeHead(302, { Location: `${other.url}/landed` });
			res.end();
		});
		try {
			const outcome = await transport.send(await certified(`GET ${redirecting.url}/\nClientCert: pfx: client.p12 passphrase: p12-pass`));
			// The redirecting server required and got the block's; the other origin got user.toml's (its server's setting), not the block's.
			expect(outcome).toMatchObject({ kind: "done", head: { status: 200, redirects: 1 } });
			expect(whose(outcome)).toBe("localhost");
		} finally {
			await Promise.all([other.close(), redirecting.close()]);
		}
	});

	it("is read and presented when a note's http and SSE blocks run", async () => {
		const note = parseNote(`\`\`\`http\nGET ${asking.url}/\nClientCert: pfx: client.p12 passphrase: p12-pass\n\`\`\`\n\n\`\`\`http\nSSE ${asking.url}/\nX-ClientCert: cert: client-cert.pem key: client-key.pem\n\`\`\`\n\n\`\`\`http\nGET ${asking.url}/\nClientCert: pfx: nowhere.p12\n\`\`\``);
		const runs = await runBlocks(note, note, { filePath: "api.md", env: {}, results: new Map<string, BlockResult>(), deps: { transport, cacheKey, files: tlsVault() } });
		const [http, sse, missing] = runs.map((r) => r.result as BlockResult & { body?: Uint8Array; request?: PreparedRequest });
		expect(http).toMatchObject({ state: "done", head: { status: 200 } });
		// The key read for the handshake went to the transport only: the results keep what the block named.
		expect([http.request?.clientTls, sse.request?.clientTls]).toEqual([undefined, undefined]);
		expect([http.request?.clientCert, sse.request?.clientCert]).toEqual([{ pfx: "client.p12", passphrase: "p12-pass" }, { cert: "client-cert.pem", key: "client-key.pem" }]);
		expect(new TextDecoder().decode(http.body)).toBe('{"client":"runnable-blocks-client"}');
		// Not an event stream: the SSE block keeps the whole response, as an http block does.
		expect(sse).toMatchObject({ state: "done", head: { status: 200 } });
		expect(new TextDecoder().decode(sse.body)).toBe('{"client":"runnable-blocks-client"}');
		expect(missing).toMatchObject({ state: "failed", error: { code: "cert_file_missing", message: 'No file "nowhere.p12" for the client certificate' } });
	});

	it("is presented by a WebSocket block's ws, and refused where the browser's WebSocket would run it", async () => {
		const server = https.createServer({ key: pem("key.pem"), cert: pem("cert.pem"), ca: [pem("client-cert.pem")], requestCert: true, rejectUnauthorized: true });
		const wss = new WebSocketServer({ server });
		wss.on("connection", (socket, req) => socket.send(`client=${String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? "")}`));
		await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
		const url = `wss://localhost:${(server.address() as AddressInfo).port}/`;
		const note = parseNote(`\`\`\`http\nWEBSOCKET ${url}\nClientCert: pfx: client.p12 passphrase: p12-pass\n\n=== wait-for-server\n\`\`\``);
		const trusted = parseSettings('[tls."localhost"]\nca = "cert.pem"\n');
		if (!trusted.ok) throw new Error("user.toml");
		const tls = tlsFromSettings(() => trusted.settings.tls, (path) => Promise.resolve(pem(path)), () => undefined);
		const run = (websocket: object) => runBlocks(note, note, { filePath: "api.md", env: {}, results: new Map<string, BlockResult>(), deps: { transport, cacheKey, files: tlsVault(), kinds: { websocket } } });
		try {
			const [withWs] = await run({ tls });
			expect(withWs.result).toMatchObject({ state: "done", messages: [{ direction: "received", data: "client=runnable-blocks-client" }] });
			expect((withWs.result as BlockResult & { request?: PreparedRequest }).request?.clientTls).toBeUndefined();
			// The browser's transport (mobile), here over the ws client: the block fails before it would dial.
			const [inBrowser] = await run({ transport: createBrowserWsTransport(WsClient as unknown as typeof globalThis.WebSocket) });
			expect(inBrowser.result).toMatchObject({ state: "failed", error: { code: "client_cert_not_sent", message: "This WebSocket cannot present a client certificate: run the block on desktop or in the CLI" } });
		} finally {
			for (const c of wss.clients) c.terminate();
			wss.close();
			await new Promise((r) => server.close(r));
		}
	});

	it("is refused by fetch, which cannot present one, rather than sent without it", async () => {
		const outcome = await new FetchTransport().send(await certified(`GET ${asking.url}/\nClientCert: pfx: client.p12 passphrase: p12-pass`));
		expect(outcome).toMatchObject({ kind: "failed", code: "client_cert_unsupported", message: "The fetch transport cannot present a client certificate: use the node transport (desktop, CLI)" });
	});
});
