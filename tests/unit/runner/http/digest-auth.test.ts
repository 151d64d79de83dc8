import { digestAuthorization, digestCredentials, parseChallenge } from "../../../../src/runner/http/digest-auth";

describe("digest auth", () => {
	it("reads `Digest user password` and `Digest user:password`, and leaves the header out", () => {
		expect(digestCredentials([["Accept", "*/*"], ["Authorization", "Digest doe 12345678"]])).toEqual({ credentials: { user: "doe", password: "12345678" }, headers: [["Accept", "*/*"]] });
		expect(digestCredentials([["authorization", "Digest user:pass"]])?.credentials).toEqual({ user: "user", password: "pass" });
		expect(digestCredentials([["Authorization", "Basic dXNlcjpwYXNz"]])).toBeNull();
		// An answer already computed is sent as written.
		expect(digestCredentials([["Authorization", 'Digest username="u", nonce="n", response="r"']])).toBeNull();
	});

	it("parses a challenge with quoted and token values", () => {
		expect(parseChallenge('Digest realm="me@kennethreitz.com", nonce="abc", qop="auth", opaque="o\\"x", algorithm=MD5, stale=FALSE')).toEqual({
			realm: "me@kennethreitz.com",
			nonce: "abc",
			qop: "auth",
			opaque: 'o"x',
			algorithm: "MD5",
			stale: "FALSE",
		});
		expect(parseChallenge('Basic realm="x"')).toBeNull();
		expect(parseChallenge('Digest realm="x"')).toBeNull();
	});

	it("answers RFC 2617 §3.5's example", () => {
		const challenge = { realm: "testrealm@host.com", qop: "auth,auth-int", nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque: "5ccc069c403ebaf9f0171e9517f40e41" };
		const value = digestAuthorization(challenge, { user: "Mufasa", password: "Circle Of Life" }, "GET", "/dir/index.html", "0a4f113b");
		expect(value).toContain('response="6629fae49393a05397450978507c4ef1"');
		expect(value).toContain("qop=auth, nc=00000001, cnonce=\"0a4f113b\"");
		expect(value).toContain('opaque="5ccc069c403ebaf9f0171e9517f40e41"');
	});

	it("answers RFC 7616 §3.9.1's SHA-256 example", () => {
		const challenge = { realm: "http-auth@example.org", qop: "auth, auth-int", algorithm: "SHA-256", nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque: "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS" };
		const value = digestAuthorization(challenge, { user: "Mufasa", password: "Circle of Life" }, "GET", "/dir/index.html", "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ");
		expect(value).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
	});

	it("gives up on an algorithm or qop it cannot answer", () => {
		expect(digestAuthorization({ nonce: "n", algorithm: "SHA-512-256" }, { user: "u", password: "p" }, "GET", "/")).toBeNull();
		expect(digestAuthorization({ nonce: "n", qop: "auth-int" }, { user: "u", password: "p" }, "GET", "/")).toBeNull();
	});
});
