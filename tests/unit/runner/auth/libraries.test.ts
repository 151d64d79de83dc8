import { aws4Library, joseLibrary, oauthLibrary } from "../../../../src/runner/auth/libraries";

/** A JWT with `{ sub: "ada" }` as its payload and no signature (decoding does not verify). */
const UNSIGNED_JWT = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from('{"sub":"ada"}').toString("base64url")}.`;

describe("the auth libraries, loaded on first use", () => {
	it.each([
		["oauth4webapi", oauthLibrary],
		["jose", joseLibrary],
		["aws4", aws4Library],
	])("hands out one %s for every call", (_name, load) => {
		expect(load()).toBe(load());
	});

	it("gives the JWT decoder that reads a token's claims", () => {
		expect(joseLibrary().decodeJwt(UNSIGNED_JWT)).toEqual({ sub: "ada" });
	});

	it("gives the request signer that signs with the keys it is handed", () => {
		const signed = aws4Library().sign({ host: "127.0.0.1", path: "/", service: "s3", region: "eu-west-1", method: "GET" }, { accessKeyId: "AKID", secretAccessKey: "secret" });
		expect(signed.headers?.Authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/s3\/aws4_request, /);
	});

	it("gives the OAuth client that builds a token endpoint's client authentication", () => {
		const oauth = oauthLibrary();
		expect(typeof oauth.ClientSecretPost("s3cret")).toBe("function");
		expect(oauth.isDPoPNonceError).toBeInstanceOf(Function);
	});
});
