import { parseHttpBlock, resolveTemplate, type PropertyDirective } from "../../../src/blocks";
import { propertyReader, propertyText, propertyWrites, runSucceeded, type PropertyScope } from "../../../src/runner/note-properties";
import { referenceSources } from "../../../src/runner/prepare";

const body = JSON.stringify({ price: 12.5, count: 3, open: true, tags: ["a", "b"], name: "Widget", zip: "02134", nothing: null, nested: { x: 1 } });

function scope(over: Partial<PropertyScope> = {}): PropertyScope {
	const properties = over.properties ?? { region: "eu", limit: 10, flags: ["x"] };
	return {
		ownBody: body,
		sources: referenceSources({ env: { base: "https://x.test", n: "42", yes: "true", zero: "007" }, aliases: new Set(), result: () => undefined, read: () => ({ ok: false, message: "" }), properties }),
		properties,
		...over,
	};
}

const directives = (...lines: string[]): PropertyDirective[] => parseHttpBlock([...lines.map((l) => `# @property ${l}`), "GET https://x.test"].join("\n")).properties;

describe("the values a successful run sets", () => {
	it.each([
		["p = {{$.price}}", 12.5],
		["p = {{$.count}}", 3],
		["p = {{$.open}}", true],
		["p = {{$.tags}}", ["a", "b"]],
		["p = {{$.name}}", "Widget"],
		["p = {{$.zip}}", "02134"],
		["p = {{$.nothing}}", null],
		["p = {{$.nested}}", { x: 1 }],
		["p = {{$.tags[1]}}", "b"],
		["p = {{$..x}}", 1],
	])("%s keeps the JSON type of what it selects", (written, value) => {
		expect(propertyWrites(directives(written), scope())).toEqual({ ok: true, values: { p: value } });
	});

	it.each([
		["p = {{this.limit}}", 10],
		["p = {{this.flags}}", ["x"]],
		["p = {{n}}", 42],
		["p = {{yes}}", true],
		["p = {{zero}}", "007"],
		["p = {{base}}", "https://x.test"],
	])("%s, one other reference, keeps a property's type, and reads a number or boolean written as one", (written, value) => {
		expect(propertyWrites(directives(written), scope())).toEqual({ ok: true, values: { p: value } });
	});

	it.each([
		["p = {{$.count}} items", "3 items"],
		["p = {{$.name}} in {{this.region}}", "Widget in eu"],
		["p = {{$.tags}}!", '["a","b"]!'],
		["p = \\{{$.name}} {{n}}", "{{$.name}} 42"],
	])("%s, text around references, is a string", (written, value) => {
		expect(propertyWrites(directives(written), scope())).toEqual({ ok: true, values: { p: value } });
	});

	it("sets every directive's property, in order", () => {
		expect(propertyWrites(directives("price = {{$.price}}", "last name = {{$.name}}"), scope())).toEqual({ ok: true, values: { price: 12.5, "last name": "Widget" } });
	});

	it.each([
		[["a = {{$.price}}", "b = {{$.missing}}"], "@property b: $.missing matches nothing in the response body"],
		[["a = {{nope}}"], '@property a: Unresolved reference {{nope}}: no variable "nope" in the active environment'],
		[["a = {{this.gone}}"], '@property a: Unresolved reference {{this.gone}}: the note has no property "gone" in its front matter'],
	])("sets nothing when one value does not resolve, naming it: %j", (lines, message) => {
		expect(propertyWrites(directives(...lines), scope())).toEqual({ ok: false, message });
	});

	it("says so when the response is not JSON, or there is no body", () => {
		expect(propertyWrites(directives("a = {{$.x}}"), scope({ ownBody: "<html>" }))).toEqual({ ok: false, message: "@property a: the response body is not JSON, so $.x cannot be read" });
		expect(propertyWrites(directives("a = {{$.x}}"), scope({ ownBody: undefined }))).toEqual({ ok: false, message: "@property a: the run has no response body to read $.x from" });
	});
});

describe("which runs set properties", () => {
	it.each([
		[{ state: "done" as const }, true],
		[{ state: "cached" as const }, true],
		[{ state: "done" as const, assertions: [{ line: 3, text: "status == 200", ok: true, actual: "200" }] }, true],
		[{ state: "done" as const, assertions: [{ line: 3, text: "status == 200", ok: false, actual: "500" }] }, false],
		[{ state: "failed" as const }, false],
		[{ state: "cancelled" as const }, false],
	])("%j → %s", (result, expected) => expect(runSucceeded(result)).toBe(expected));
});

describe("{{this.<name>}}: a property as text", () => {
	it.each([
		["plain", "plain"],
		[3, "3"],
		[false, "false"],
		[null, ""],
		[["a", "b"], '["a","b"]'],
		[{ k: 1 }, '{"k":1}'],
	])("%j → %j", (value, text) => expect(propertyText(value)).toBe(text));

	it("reads the note's property, and says which is missing", () => {
		const sources = referenceSources({ env: { "this.region": "env" }, aliases: new Set(), result: () => undefined, read: () => ({ ok: false, message: "" }), properties: { region: "eu", "a.b": 2 } });
		expect(resolveTemplate("{{this.region}}/{{this.a.b}}/{{%this.region}}", sources)).toMatchObject({ value: "eu/2/eu", errors: [] });
		expect(resolveTemplate("{{this.city}}", sources).errors).toEqual([{ reference: "{{this.city}}", message: 'Unresolved reference {{this.city}}: the note has no property "city" in its front matter', notRunAlias: undefined }]);
	});

	it("is an ordinary variable name where no note properties are given", () => {
		const sources = referenceSources({ env: { "this.region": "env" }, aliases: new Set(), result: () => undefined, read: () => ({ ok: false, message: "" }) });
		expect(resolveTemplate("{{this.region}}", sources).value).toBe("env");
	});

	it("reads own properties only", () => {
		const read = propertyReader(Object.create({ inherited: "x" }) as Record<string, unknown>);
		expect(read("inherited")).toBeUndefined();
		expect(read("toString")).toBeUndefined();
	});
});
