import * as real from "tldts";
import { getDomain } from "../../../../src/runner/shims/tldts";

// The options tough-cookie passes (getPublicSuffix.js).
const OPTIONS = { allowIcannDomains: true, allowPrivateDomains: true };

describe("the lazy tldts stand-in", () => {
	it.each([
		"www.example.com",
		"a.b.example.co.uk",
		"co.uk",
		"uk",
		"github.io",
		"me.github.io",
		"localhost",
		"127.0.0.1",
		"[::1]",
		"xn--bcher-kva.example",
		"",
	])("answers getDomain(%j) as tldts does", (host) => {
		expect(getDomain(host, OPTIONS)).toBe(real.getDomain(host, OPTIONS));
	});
});
