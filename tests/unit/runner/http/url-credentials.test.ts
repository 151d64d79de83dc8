import { basicAuthOf } from "../../../../src/runner/http/url-credentials";

const basic = (userPass: string) => `Basic ${Buffer.from(userPass, "utf8").toString("base64")}`;

describe("credentials in a URL as Basic auth", () => {
	it.each([
		["http://user:pw@127.0.0.1/", basic("user:pw")],
		["http://user@127.0.0.1/", basic("user:")],
		["http://:pw@127.0.0.1/", basic(":pw")],
		["http://us%40er:p%3Aw@127.0.0.1/", basic("us@er:p:w")],
		["http://j%C3%BCrgen:%C3%A9t%C3%A9@127.0.0.1/", basic("jürgen:été")],
		["http://user:100%25@127.0.0.1/", basic("user:100%")],
	])("%s sends %s (percent-escapes decoded, UTF-8 bytes)", (url, header) => {
		expect(basicAuthOf(new URL(url))).toBe(header);
	});

	it("is null for a URL without credentials", () => {
		expect(basicAuthOf(new URL("http://127.0.0.1:8080/a?b=1"))).toBeNull();
	});

	it("sends a malformed escape as written instead of failing", () => {
		expect(basicAuthOf(new URL("http://a%E0:pw@127.0.0.1/"))).toBe(basic("a%E0:pw"));
	});
});
