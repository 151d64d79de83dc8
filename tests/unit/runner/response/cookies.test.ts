import { parseCookies } from "../../../../src/runner/response/cookies";

describe("cookies", () => {
	it("parses every Set-Cookie header with all attributes, values as sent", () => {
		const cookies = parseCookies([
			["Set-Cookie", "session=a%20b; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=60"],
			["content-type", "text/plain"],
			["set-cookie", "theme=dark; Domain=example.test; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Partitioned"],
		]);
		expect(cookies).toEqual([
			expect.objectContaining({ name: "session", value: "a%20b", path: "/", httpOnly: true, secure: true, sameSite: "Lax", maxAge: 60, partitioned: false }),
			expect.objectContaining({ name: "theme", value: "dark", domain: "example.test", expires: "Wed, 21 Oct 2026 07:28:00 GMT", partitioned: true, secure: false }),
		]);
	});
});
