import { readFrontMatter, setFrontMatter } from "../../../src/cli/front-matter";

describe("reading a note's properties", () => {
	it.each([
		["---\nprice: 12.5\ntags:\n  - a\nopen: true\nname: Widget\n---\nbody", { price: 12.5, tags: ["a"], open: true, name: "Widget" }],
		["---\r\nregion: eu\r\n---\r\nbody", { region: "eu" }],
		["no front matter\n---\nx: 1\n---", {}],
		["---\n---\nbody", {}],
	])("%j", (text, properties) => expect(readFrontMatter(text)).toEqual({ ok: true, properties }));

	it("says why a broken front matter cannot be read", () => {
		expect(readFrontMatter("---\n- a\n---\n")).toEqual({ ok: false, message: "the front matter is not a map of properties" });
		const broken = readFrontMatter("---\na: [1\n---\n");
		expect(!broken.ok && broken.message).toMatch(/^the front matter is not valid YAML: /);
	});
});

describe("setting properties", () => {
	it("sets them with their types, the rest of the note byte-identical", () => {
		const body = "\n# Title\n\n```http\nGET https://x.test\n```\n";
		const out = setFrontMatter(`---\nregion: eu # where\nprice: 1\n---${body}`, { price: 12.5, open: true, tags: ["a", "b"], label: "Widget (eu)" });
		if (!out.ok) throw new Error(out.message);
		expect(out.text).toBe(`---\nregion: eu # where\nprice: 12.5\nopen: true\ntags:\n  - a\n  - b\nlabel: Widget (eu)\n---${body}`);
		expect(readFrontMatter(out.text)).toEqual({ ok: true, properties: { region: "eu", price: 12.5, open: true, tags: ["a", "b"], label: "Widget (eu)" } });
	});

	it("gives a note without front matter one, in its line breaks", () => {
		expect(setFrontMatter("body\n", { n: 3 })).toEqual({ ok: true, text: "---\nn: 3\n---\nbody\n" });
		expect(setFrontMatter("a\r\nb", { s: "02134" })).toEqual({ ok: true, text: '---\r\ns: "02134"\r\n---\r\na\r\nb' });
	});

	it("keeps a CRLF note's line breaks", () => {
		expect(setFrontMatter("---\r\na: 1\r\n---\r\nbody", { a: 2 })).toEqual({ ok: true, text: "---\r\na: 2\r\n---\r\nbody" });
	});

	it("refuses a front matter that is not a map, leaving the note as it is", () => {
		expect(setFrontMatter("---\n- a\n---\nbody", { a: 1 })).toEqual({ ok: false, message: "the front matter is not a map of properties" });
	});
});
