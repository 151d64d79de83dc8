import { parseNote } from "../../../src/blocks";
import { variablesReadBy } from "../../../src/cli/variables-read";

const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\n\`\`\``;

describe("variablesReadBy: the variables a run reads, for warning about unset secrets", () => {
	const note = parseNote(
		[
			fence("http", "@pw = {{password}}"),
			fence("http alias=login", "POST {{base_url}}/login\n\n{\"password\": \"{{pw}}\"}"),
			fence("http alias=me", "GET {{base_url}}/me\nAuthorization: Bearer {{login.response.body.$.token}}"),
			fence("http alias=plain", "GET {{base_url}}/search?q={{uuid}}"),
			fence("db alias=rows", "SELECT * FROM t WHERE owner = {{owner}}"),
			fence("http alias=loop", "GET {{a}}"),
		].join("\n\n"),
	);
	const block = (alias: string) => {
		const found = note.find((b) => b.alias === alias);
		if (!found) throw new Error(`no block ${alias}`);
		return found;
	};
	const environment = { base_url: "http://127.0.0.1", owner: "{{token}}", a: "{{b}}", b: "{{a}}" };

	it("names what a block's references read, and no built-in", () => {
		expect([...variablesReadBy(note, [block("plain")], environment)]).toEqual(["base_url"]);
	});

	it("follows a file variable, and an environment value, to the variables they name", () => {
		expect(variablesReadBy(note, [block("login")], environment)).toEqual(new Set(["base_url", "pw", "password"]));
		expect(variablesReadBy(note, [block("rows")], environment)).toEqual(new Set(["owner", "token"]));
	});

	it("follows an alias to the block the run needs first", () => {
		expect(variablesReadBy(note, [block("me")], environment)).toEqual(new Set(["base_url", "pw", "password"]));
	});

	it("ends on variables that name each other", () => {
		expect(variablesReadBy(note, [block("loop")], environment)).toEqual(new Set(["a", "b"]));
	});
});
