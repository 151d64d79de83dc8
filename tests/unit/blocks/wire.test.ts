import { encodeForm, formBody } from "../../../src/blocks";

const FORM: Array<[string, string]> = [["Content-Type", "application/x-www-form-urlencoded"]];

describe("form bodies on the wire (httpyac's encodeurl rule)", () => {
	it("joins lines and percent-encodes what a URL cannot hold", () => {
		expect(formBody(FORM, "name=John&\nage=30&\ncity=New York")).toBe("name=John&age=30&city=New%20York");
		expect(formBody(FORM, 'files={ "zipfile":"YWJj==" }')).toBe("files=%7B%20%22zipfile%22:%22YWJj==%22%20%7D");
	});

	it("keeps escapes already written and URL punctuation", () => {
		expect(encodeForm("a=%20b&c=d+e/f?g:h[i]")).toBe("a=%20b&c=d+e/f?g:h[i]");
	});

	it("encodes a % that starts no escape, non-ASCII as UTF-8, and a lone surrogate as U+FFFD", () => {
		expect(encodeForm("p=100%&q=%zz")).toBe("p=100%25&q=%25zz");
		expect(encodeForm("n=é")).toBe("n=%C3%A9");
		expect(encodeForm("s=\uD800")).toBe("s=%EF%BF%BD");
	});

	it("leaves other content types unchanged", () => {
		expect(formBody([["Content-Type", "text/plain"]], "a b\nc")).toBe("a b\nc");
	});
});
