import { fromForm, parseHttpBlock, serializeCanonical, toCanonicalRequest, toForm } from "../../../src/blocks";

const req = (text: string) => {
	const r = toCanonicalRequest(parseHttpBlock(text));
	if (!r) throw new Error("no request");
	return r;
};

describe("request form model", () => {
	it("splits the query into rows, keeping text as written", () => {
		const f = toForm(req("GET {{base_url}}/search?q=a%20b&tag={{tag}}&flag\nAccept: */*"));
		expect(f.base).toBe("{{base_url}}/search");
		expect(f.query).toEqual([
			{ name: "q", value: "a%20b" },
			{ name: "tag", value: "{{tag}}" },
			{ name: "flag", value: "", bare: true },
		]);
		expect(f.headers).toEqual([{ name: "Accept", value: "*/*" }]);
		expect(f.formBody).toBeNull();
	});

	it("round-trips an unmodified form to the same canonical text", () => {
		const text = "# @name s\nPOST http://h/a?x=1&y\nContent-Type: application/x-www-form-urlencoded\n\na=1&b=two+words&c=";
		const r = req(text);
		expect(serializeCanonical(fromForm(r, toForm(r)))).toBe(serializeCanonical(r));
	});

	it("edits rows of a form-urlencoded body, the query and headers", () => {
		const r = req("POST http://h/a\nContent-Type: application/x-www-form-urlencoded\n\na=1&b=2");
		const f = toForm(r);
		expect(f.formBody).toEqual([
			{ name: "a", value: "1" },
			{ name: "b", value: "2" },
		]);
		f.formBody?.push({ name: "c", value: "3" });
		f.query.push({ name: "page", value: "2" });
		f.headers.push({ name: "  X-New ", value: " v " }, { name: "", value: "dropped" });
		expect(serializeCanonical(fromForm(r, f))).toBe("POST http://h/a?page=2\nContent-Type: application/x-www-form-urlencoded\nX-New: v\n\na=1&b=2&c=3");
	});

	it("edits other bodies as text", () => {
		const r = req('PUT http://h/a\nContent-Type: application/json\n\n{"a": 1}');
		const f = toForm(r);
		f.body = '{\n  "a": 2\n}';
		expect(fromForm(r, f).body).toBe('{\n  "a": 2\n}');
	});
});
