import { maskSecrets } from "../../../src/runner/mask-secrets";

describe("maskSecrets", () => {
	it("masks secrets raw and percent-encoded", () => {
		expect(maskSecrets("http://h/a?k=s3cr%C3%A9t&x=s3crét", ["s3crét"])).toBe("http://h/a?k=•••&x=•••");
	});

	it("leaves the text alone for an empty secret", () => {
		expect(maskSecrets("http://h/", [""])).toBe("http://h/");
	});

	it("masks every secret, each time it appears", () => {
		expect(maskSecrets("a=tok1 b=tok2 c=tok1", ["tok1", "tok2"])).toBe("a=••• b=••• c=•••");
	});
});
