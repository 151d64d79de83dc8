/**
 * A block's client certificate (`ClientCert:`) in snippets: curl's options, run by the real curl
 * against a server that requires the certificate; `.http` keeps the pseudo-header; the tools
 * that cannot carry it refuse, naming why.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { promisify } from "node:util";
import { parseNote, type HttpNoteBlock } from "../../../../src/blocks";
import { readResult } from "../../../../src/runner/block-runners";
import { prepareRequest } from "../../../../src/runner/prepare";
import type { PreparedRequest } from "../../../../src/runner/request";
import { curlClientCertArgs, refuseClientCert } from "../../../../src/runner/snippets/client-cert";
import { toCurl, toFetch, toHttpFile, toHttpie, toPython } from "../../../../src/runner/snippets/generators";
import { ExportError } from "../../../../src/runner/snippets/quote";

const exec = promisify(execFile);
jest.setTimeout(30_000);

const TLS_DIR = join(__dirname, "../../../support/tls");
const pem = (name: string) => readFileSync(join(TLS_DIR, name), "utf8");
/** The host's paths for the note's files: the certificates folder. */
const locate = (written: string) => (/^[\w.-]+$/.test(written) ? join(TLS_DIR, written) : null);

function prepared(text: string): PreparedRequest {
	const block = parseNote(`\`\`\`http\n${text}\n\`\`\``)[0] as HttpNoteBlock;
	const p = prepareRequest(block, { env: {}, aliases: new Set(), result: () => undefined, read: readResult });
	if (!p.ok) throw new Error(p.error.message);
	return p.request;
}

const refusal = (write: () => unknown) => {
	try {
		write();
	} catch (e) {
		if (e instanceof ExportError) return { why: e.why, vars: e.vars, message: e.message };
		throw e;
	}
	return null;
};

let server: https.Server;
let url: string;
beforeAll(async () => {
	server = https.createServer({ key: pem("key.pem"), cert: pem("cert.pem"), ca: [pem("client-cert.pem")], requestCert: true, rejectUnauthorized: true }, (req, res) => {
		res.end(`client=${String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? "")}`);
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	url = `https://localhost:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe("curl with a block's client certificate", () => {
	it("names the files by the host's paths, a PKCS #12 bundle by its type, and the passphrase", () => {
		expect(curlClientCertArgs(prepared("GET https://h/\nClientCert: cert: client-cert.pem key: client-key.pem"), locate)).toEqual(["--cert", join(TLS_DIR, "client-cert.pem"), "--key", join(TLS_DIR, "client-key.pem")]);
		expect(curlClientCertArgs(prepared("GET https://h/\nClientCert: pfx: client.p12 passphrase: it's"), locate)).toEqual(["--cert-type", "P12", "--cert", join(TLS_DIR, "client.p12"), "--pass", "'it'\\''s'"]);
	});

	it("escapes a colon in a certificate's path, which curl would read as the start of a password", () => {
		expect(curlClientCertArgs(prepared("GET https://h/\nClientCert: pfx: a.p12"), () => "/v/C:\\x/a.p12")).toEqual(["--cert-type", "P12", "--cert", "'/v/C\\:\\\\x/a.p12'"]);
	});

	it("adds nothing for a plain http request, or one without a certificate", () => {
		expect(curlClientCertArgs(prepared("GET http://h/\nClientCert: pfx: client.p12"), locate)).toEqual([]);
		expect(curlClientCertArgs(prepared("GET https://h/"), locate)).toEqual([]);
	});

	it("refuses when the host cannot name the file, or does not have it", () => {
		expect(refusal(() => curlClientCertArgs(prepared("GET https://h/\nClientCert: pfx: client.p12"), undefined))).toMatchObject({ why: "client_cert_desktop_only", vars: { path: "client.p12" } });
		expect(refusal(() => curlClientCertArgs(prepared("GET https://h/\nClientCert: pfx: gone/b.p12"), locate))).toMatchObject({ why: "client_cert_not_found", vars: { path: "gone/b.p12" } });
	});

	it("is what the real curl presents to a server that requires it", async () => {
		const env = { ...process.env, CURL_CA_BUNDLE: join(TLS_DIR, "cert.pem") };
		for (const header of ["ClientCert: pfx: client.p12 passphrase: p12-pass", "ClientCert: cert: client-cert.pem key: client-key-encrypted.pem passphrase: key-pass"]) {
			const command = toCurl(prepared(`GET ${url}/\n${header}`), { locate });
			const { stdout } = await exec("sh", ["-c", command], { env });
			expect(stdout).toBe("client=runnable-blocks-client");
		}
		// And the server refuses the same command without the certificate.
		await expect(exec("sh", ["-c", toCurl(prepared(`GET ${url}/`), { locate })], { env })).rejects.toThrow();
	});
});

describe("the other formats", () => {
	const withCert = () => prepared("# @no-redirect\nGET https://h/\nClientCert: pfx: client.p12 passphrase: p12-pass");

	it("keep the pseudo-header in a .http file, as the block wrote it", () => {
		expect(toHttpFile([{ request: withCert() }])).toBe("### GET https://h/\n# @no-redirect\nGET https://h/\nClientCert: pfx: client.p12 passphrase: p12-pass\n");
		expect(toHttpFile([{ request: prepared("# @no-client-cert\nGET https://h/") }])).toBe("### GET https://h/\n# @no-client-cert\nGET https://h/\n");
	});

	it("are refused by fetch, Python and HTTPie, naming the tool", () => {
		for (const [write, tool] of [[toFetch, "fetch"], [toPython, "Python"], [toHttpie, "HTTPie"]] as const) {
			expect(refusal(() => write(withCert(), { locate }))).toEqual({ why: "client_cert_tool", vars: { tool }, message: `A request with a client certificate (ClientCert) exports to cURL and .http only, not ${tool}` });
		}
		// A plain http request presents no certificate: those tools write it.
		expect(refusal(() => refuseClientCert(prepared("GET http://h/\nClientCert: pfx: client.p12"), "fetch"))).toBeNull();
	});
});
