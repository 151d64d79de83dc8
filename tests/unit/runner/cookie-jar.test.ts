import { CookieJars, withJarCookies } from "../../../src/runner/cookie-jar";

describe("CookieJars", () => {
	it("serializes every environment's jar and restores it", () => {
		const jars = new CookieJars();
		jars.for("dev").store("http://127.0.0.1:1/login", ["sid=abc; Path=/; HttpOnly", "long=1; Max-Age=3600"]);
		jars.for("prod").store("https://api.example.com/", ["p=1; Secure"]);
		const copy = new CookieJars();
		expect(copy.restore(jars.serialize())).toBeNull();
		expect(copy.for("dev").header("http://127.0.0.1:1/x")).toBe("sid=abc; long=1");
		expect(copy.for("prod").header("https://api.example.com/")).toBe("p=1");
		expect(copy.list("dev").find((c) => c.name === "long")?.expires).not.toBeNull();
	});

	it("text it cannot read leaves the jars empty and says why", () => {
		const jars = new CookieJars();
		jars.for("dev").store("http://h/", ["a=1"]);
		expect(jars.restore("{not json")).toMatch(/JSON/);
		expect(jars.list("dev")).toEqual([]);
	});

	it("tells onChange when a response stored cookies or a jar was cleared, not otherwise", () => {
		const jars = new CookieJars();
		const calls: string[] = [];
		jars.onChange = () => calls.push("change");
		jars.for("dev").store("http://h/", []);
		jars.for("dev").store("http://h/", ["a=1"]);
		jars.clear("dev");
		expect(calls).toEqual(["change", "change"]);
	});

	it("refuses a Secure cookie over http but keeps it over https", () => {
		const jars = new CookieJars();
		jars.for("e").store("http://h/", ["s=1; Secure"]);
		jars.for("e").store("https://h/", ["t=1; Secure"]);
		expect(jars.list("e").map((c) => c.name)).toEqual(["t"]);
	});

	it("appends the jar's cookies to a Cookie the block wrote", () => {
		expect(withJarCookies([["Cookie", "mine=1"]], "a=2")).toEqual([["Cookie", "mine=1; a=2"]]);
		expect(withJarCookies([["Accept", "*/*"]], "a=2")).toEqual([["Accept", "*/*"], ["Cookie", "a=2"]]);
		expect(withJarCookies([["Accept", "*/*"]], null)).toEqual([["Accept", "*/*"]]);
	});
});
