import { clientCertValue, isClientCertHeader, parseHttpBlock, shapeRequest, takeClientCert } from "../../../src/blocks";

const shape = (headers: Array<[string, string]>) => shapeRequest({ method: "GET", url: "https://api.test/x", headers, body: "" }, { graphql: null, graphqlVariables: null });

describe("httpyac's ClientCert pseudo-header", () => {
	it("is any header whose name ends in ClientCert, in any case", () => {
		expect(["ClientCert", "X-ClientCert", "clientcert", "X-CLIENTCERT"].map(isClientCertHeader)).toEqual([true, true, true, true]);
		expect(["Client-Cert", "ClientCertificate", "Cert", ""].map(isClientCertHeader)).toEqual([false, false, false, false]);
	});

	it("takes cert and key, or pfx, with an optional passphrase, out of the headers", () => {
		expect(takeClientCert([["Accept", "*/*"], ["ClientCert", "cert: ./c.pem key: ./k.pem"], ["X-Id", "1"]])).toEqual({
			ok: true,
			headers: [["Accept", "*/*"], ["X-Id", "1"]],
			clientCert: { cert: "./c.pem", key: "./k.pem" },
		});
		expect(takeClientCert([["X-ClientCert", "pfx: ../assets/badssl.com-client.p12 passphrase: badssl.com"]])).toEqual({
			ok: true,
			headers: [],
			clientCert: { pfx: "../assets/badssl.com-client.p12", passphrase: "badssl.com" },
		});
		expect(takeClientCert([["clientcert", "  cert:c.pem   key:k.pem passphrase:  s3cret  "]])).toEqual({ ok: true, headers: [], clientCert: { cert: "c.pem", key: "k.pem", passphrase: "s3cret" } });
	});

	it("leaves a value that does not name a certificate as an ordinary header, as httpyac sends it", () => {
		const headers: Array<[string, string]> = [["ClientCert", "yes"], ["X-ClientCert", ""]];
		expect(takeClientCert(headers)).toEqual({ ok: true, headers, clientCert: null });
	});

	it("refuses what names a certificate badly, rather than sending without it", () => {
		const why = (value: string, headers: Array<[string, string]> = []) => {
			const r = takeClientCert([...headers, ["ClientCert", value]]);
			return r.ok ? null : r.message;
		};
		expect(why("cert: c.pem")).toBe("ClientCert: cert: needs its key: (write cert: <file> key: <file>, or pfx: <file>, each optionally followed by passphrase: <text>)");
		expect(why("key: k.pem")).toMatch(/^ClientCert: key: needs its cert: /);
		expect(why("passphrase: x")).toMatch(/^ClientCert: no file is named /);
		expect(why("cert: c.pem key: k.pem pfx: b.p12")).toBe("ClientCert: name the certificate once, by cert: and key: or by pfx:");
		// httpyac's order: cert, key, pfx, passphrase.
		expect(why("key: k.pem cert: c.pem")).toBe('ClientCert: "key: k.pem cert: c.pem" is not a client certificate: write cert: <file> key: <file>, or pfx: <file>, each optionally followed by passphrase: <text>');
		expect(why("pfx: b.p12", [["X-ClientCert", "pfx: a.p12"]])).toBe("ClientCert: the request already names a client certificate");
	});

	it("writes a certificate back in the form it reads", () => {
		for (const value of ["cert: c.pem key: k.pem", "cert: c.pem key: k.pem passphrase: p", "pfx: b.p12", "pfx: b.p12 passphrase: p"]) {
			const r = takeClientCert([["ClientCert", value]]);
			if (!r.ok || !r.clientCert) throw new Error(value);
			expect(clientCertValue(r.clientCert)).toBe(value);
		}
	});

	it("is taken by shapeRequest, which reports a bad one as an invalid block", () => {
		expect(shape([["ClientCert", "pfx: b.p12"], ["Accept", "*/*"]])).toEqual({ ok: true, request: { method: "GET", url: "https://api.test/x", headers: [["Accept", "*/*"]], body: "" }, clientCert: { pfx: "b.p12" } });
		expect(shape([["Accept", "*/*"]])).toMatchObject({ ok: true, clientCert: null });
		expect(shape([["ClientCert", "cert: c.pem"]])).toEqual({ ok: false, code: "invalid_block", message: expect.stringMatching(/^ClientCert: cert: needs its key:/) as unknown });
	});

	it("has # @no-client-cert (and // @no-client-cert) turn off the configured one", () => {
		expect(parseHttpBlock("# @no-client-cert\nGET https://api.test/").noClientCert).toBe(true);
		expect(parseHttpBlock("// @no-client-cert\nGET https://api.test/").noClientCert).toBe(true);
		expect(parseHttpBlock("# @no-cookie-jar\nGET https://api.test/").noClientCert).toBe(false);
	});
});
