/**
 * `[tls.*]` of user.toml through the real node transport: a CA trusted besides the bundled roots,
 * verification off for a self-signed server, and a client certificate for a server that asks for
 * one (mutual TLS). The certificate is the test servers' self-signed one (tests/support/tls).
 */
import * as https from "node:https";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { tlsFromSettings, withBlockCertificate } from "../../../../src/runner/http/tls-options";
import type { PreparedRequest } from "../../../../src/runner/request";
import type { TransportOutcome } from "../../../../src/runner/transport";
import { parseSettings } from "../../../../src/settings/user-settings";
import { startTestServer, type TestServer } from "../../../support/servers";

jest.setTimeout(30_000);

const TLS_DIR = join(__dirname, "../../../support/tls");
const pem = (name: string) => readFileSync(join(TLS_DIR, name), "utf8");

let server: TestServer;
let mutual: https.Server;
let mutualUrl: string;

beforeAll(async () => {
	server = await startTestServer();
	// Asks every client for a certificate signed by the test CA, and says whose it got.
	mutual = https.createServer({ key: pem("key.pem"), cert: pem("cert.pem"), ca: pem("cert.pem"), requestCert: true, rejectUnauthorized: true }, (req, res) => {
		const peer = (req.socket as TLSSocket).getPeerCertificate();
		res.end(JSON.stringify({ client: peer.subject?.CN ?? null }));
	});
	await new Promise<void>((r) => mutual.listen(0, "127.0.0.1", r));
	mutualUrl = `https://localhost:${(mutual.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await server.close();
	await new Promise((r) => mutual.close(r));
});

/** A node transport with the `[tls.*]` of this user.toml; files from tests/support/tls, secrets from `secrets`. */
function transportWith(toml: string, secrets: Record<string, string> = {}) {
	const parsed = parseSettings(toml);
	if (!parsed.ok || parsed.errors.length > 0) throw new Error(JSON.stringify(parsed.errors));
	const read = (path: string) => {
		try {
			return Promise.resolve(pem(path));
		} catch {
			return Promise.resolve(null);
		}
	};
	return createNodeTransport({ tls: tlsFromSettings(() => parsed.settings.tls, read, (id) => secrets[id]) });
}

const get = (url: string): PreparedRequest => ({ method: "GET", url, headers: [], body: "", followRedirects: true, timeoutMs: 10_000 });
const body = (o: TransportOutcome) => (o.kind === "done" ? (JSON.parse(new TextDecoder().decode(o.body)) as unknown) : o);
const port = (url: string) => new URL(url).port;

describe("[tls.*] through the node transport", () => {
	it("trusts the CA of a server's ca = file, or any certificate with verify = false; another server's setting changes nothing", async () => {
		const trusted = transportWith(`[tls."localhost:${port(server.httpsUrl)}"]\nca = "cert.pem"\n`);
		const loose = transportWith(`[tls."localhost"]\nverify = false\n`);
		const other = transportWith(`[tls."example.com"]\nverify = false\n`);
		try {
			expect(body(await trusted.send(get(`${server.httpsUrl}/json`)))).toMatchObject({ ok: true });
			expect(body(await loose.send(get(`${server.httpsUrl}/json`)))).toMatchObject({ ok: true });
			const refused = await other.send(get(`${server.httpsUrl}/json`));
			expect(refused).toMatchObject({ kind: "failed", code: "connect_failed" });
		} finally {
			for (const t of [trusted, loose, other]) t.close();
		}
	});

	it("presents the client certificate of cert and key to a server that asks for one; without it the server refuses", async () => {
		const withCert = transportWith(`[tls."localhost:${port(mutualUrl)}"]\nca = "cert.pem"\ncert = "cert.pem"\nkey = "key.pem"\n`);
		const without = transportWith(`[tls."localhost:${port(mutualUrl)}"]\nca = "cert.pem"\n`);
		try {
			expect(body(await withCert.send(get(`${mutualUrl}/who`)))).toEqual({ client: "localhost" });
			expect((await without.send(get(`${mutualUrl}/who`))).kind).toBe("failed");
		} finally {
			withCert.close();
			without.close();
		}
	});

	it("fails the request naming the missing file or secret, nothing sent", async () => {
		const missing = transportWith(`[tls."localhost"]\nca = "nowhere.pem"\n`);
		const unset = transportWith(`[tls."localhost"]\ncert = "cert.pem"\nkey = "key.pem"\npassphrase = { secret = "client-key" }\n`);
		try {
			expect(await missing.send(get(`${server.httpsUrl}/json`))).toMatchObject({ kind: "failed", code: "request_failed", detail: 'no file "nowhere.pem" (user.toml [tls."localhost:' + port(server.httpsUrl) + '"])' });
			expect(await unset.send(get(`${server.httpsUrl}/json`))).toMatchObject({ kind: "failed", detail: expect.stringContaining('secret "client-key", is not set') as unknown });
		} finally {
			missing.close();
			unset.close();
		}
	});
});

describe("withBlockCertificate", () => {
	const server = { ca: "CA", cert: "SERVER-CERT", key: "SERVER-KEY", passphrase: "p", rejectUnauthorized: false };

	it("keeps the server's options when the block names no certificate", () => {
		expect(withBlockCertificate(server, undefined, false)).toBe(server);
		expect(withBlockCertificate(undefined, undefined, false)).toBeUndefined();
	});

	it("puts the block's certificate in place of the server's, keeping its CA and verification", () => {
		const pfx = new Uint8Array([1, 2]);
		expect(withBlockCertificate(server, { pfx, passphrase: "q" }, false)).toEqual({ ca: "CA", rejectUnauthorized: false, pfx, passphrase: "q" });
		expect(withBlockCertificate(undefined, { cert: "C", key: "K" }, false)).toEqual({ cert: "C", key: "K" });
	});

	it("drops the server's certificate for # @no-client-cert, and gives none when nothing is left", () => {
		expect(withBlockCertificate(server, undefined, true)).toEqual({ ca: "CA", rejectUnauthorized: false });
		expect(withBlockCertificate({ cert: "C", key: "K" }, undefined, true)).toBeUndefined();
	});
});
