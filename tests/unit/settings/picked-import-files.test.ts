import { noteNameOf, sortPickedFiles } from "../../../src/settings/picked-import-files";

const file = (name: string, text = "{}") => ({ name, text });

describe("sortPickedFiles: what the import picker returned", () => {
	it.each([
		["books.http", "httpFiles"],
		["books.REST", "httpFiles"],
		["http-client.env.json", "publicEnv"],
		["http-client.private.env.json", "privateEnv"],
		["staging.private.env.json", "privateEnv"],
		["envs.json", "publicEnv"],
	] as const)("%s is read as %s", (name, slot) => {
		const picked = sortPickedFiles([file(name)]);
		expect(picked.problems).toEqual([]);
		if (slot === "httpFiles") expect(picked.httpFiles.map((f) => f.name)).toEqual([name]);
		else expect(picked[slot]).toEqual({ file: name, json: {} });
	});

	it("reads the .http file and both env files picked together, the JSON parsed", () => {
		const picked = sortPickedFiles([file("http-client.private.env.json", '{"dev":{"a":"1"}}'), file("api.http", "GET x"), file("http-client.env.json", '{"dev":{}}')]);
		expect(picked).toEqual({
			httpFiles: [{ name: "api.http", text: "GET x" }],
			publicEnv: { file: "http-client.env.json", json: { dev: {} } },
			privateEnv: { file: "http-client.private.env.json", json: { dev: { a: "1" } } },
			problems: [],
		});
	});

	it("keeps every .http file, in the order picked", () => {
		expect(sortPickedFiles([file("b.http"), file("a.rest")]).httpFiles.map((f) => f.name)).toEqual(["b.http", "a.rest"]);
	});

	it.each([
		["another kind of file", [file("notes.txt")], [{ code: "unsupported", file: "notes.txt" }]],
		["JSON that does not parse", [file("http-client.env.json", "{ nope")], [{ code: "not_json", file: "http-client.env.json", detail: expect.any(String) as string }]],
		["a second public env file", [file("a.env.json"), file("b.env.json")], [{ code: "second_env", file: "b.env.json", first: "a.env.json" }]],
		["a second private env file", [file("a.private.env.json"), file("http-client.private.env.json")], [{ code: "second_env", file: "http-client.private.env.json", first: "a.private.env.json" }]],
	])("%s is a problem naming the file, and the other files are still read", (_, extra, problems) => {
		const picked = sortPickedFiles([file("api.http"), ...extra]);
		expect(picked.problems).toEqual(problems);
		expect(picked.httpFiles.map((f) => f.name)).toEqual(["api.http"]);
	});

	it("an env file that does not parse leaves its place to the next one of its kind", () => {
		const picked = sortPickedFiles([file("a.env.json", "nope"), file("b.env.json", '{"x":{}}')]);
		expect(picked.publicEnv).toEqual({ file: "b.env.json", json: { x: {} } });
		expect(picked.problems.map((p) => p.code)).toEqual(["not_json"]);
	});
});

it.each([
	["books.http", "books"],
	["Books.REST", "Books"],
	["my.api.http", "my.api"],
])("noteNameOf(%j) is %j", (name, note) => expect(noteNameOf(name)).toBe(note));
