/** @jest-environment jsdom */
import { editableRequest, parseNote, type CanonicalRequest } from "../../../../src/blocks";
import { FormEditor } from "../../../../src/ui/panel/form-editor";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());

/** The editable request of an http block written as `lines`. */
function requestOf(...lines: string[]): CanonicalRequest {
	const request = editableRequest(parseNote(["```http", ...lines, "```", ""].join("\n"))[0]);
	if (!request) throw new Error("no request line");
	return request;
}

/** A form editor on `request`, with what it wrote back and helpers that act as the user does. */
function edit(request: CanonicalRequest) {
	const parent = createDiv();
	const written: CanonicalRequest[] = [];
	const editor = new FormEditor(parent, request, (req) => written.push(req));
	editor.load();
	const table = (cls: string) => parent.querySelector(`table.${cls}`) as HTMLTableElement;
	const commit = (el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string) => {
		el.value = value;
		el.dispatchEvent(new Event("change"));
	};
	return {
		parent,
		editor,
		written,
		last: () => written[written.length - 1],
		rows: (cls: string) => Array.from(table(cls).querySelectorAll("tr")).map((tr) => Array.from(tr.querySelectorAll("input")).map((i) => i.value)),
		input: (cls: string, row: number, column: 0 | 1) => table(cls).querySelectorAll("tr")[row].querySelectorAll("input")[column],
		remove: (cls: string, row: number) => table(cls).querySelectorAll<HTMLButtonElement>("tr button.rb-form-remove")[row].click(),
		/** The Add button under the table of class `cls`. */
		add: (cls: string) => (table(cls).nextElementSibling as HTMLButtonElement).click(),
		method: () => parent.querySelector("select.rb-form-method") as HTMLSelectElement,
		url: () => parent.querySelector("input.rb-form-url") as HTMLInputElement,
		commit,
	};
}

const POST = ["# @name create", "POST http://127.0.0.1/items?page=2&flag HTTP/1.1", "Content-Type: application/json", "X-Trace: 1", "", '{"a": 1}'];

describe("form mode", () => {
	it("shows the method, the URL without its query, the query and headers as rows and the body as text", () => {
		const f = edit(requestOf(...POST));
		expect(f.method().value).toBe("POST");
		expect(f.url().value).toBe("http://127.0.0.1/items");
		expect(f.rows("rb-form-query")).toEqual([
			["page", "2"],
			["flag", ""],
		]);
		expect(f.rows("rb-form-headers")).toEqual([
			["Content-Type", "application/json"],
			["X-Trace", "1"],
		]);
		expect((f.parent.querySelector("textarea.rb-form-body") as HTMLTextAreaElement).value).toBe('{"a": 1}');
		expect(f.written).toEqual([]);
	});

	it("writes the whole request back on each committed change, keeping comments and version", () => {
		const f = edit(requestOf(...POST));
		f.commit(f.method(), "PUT");
		expect(f.last()).toMatchObject({ method: "PUT", url: "http://127.0.0.1/items?page=2&flag", comments: ["# @name create"], httpVersion: "HTTP/1.1" });
		f.commit(f.url(), "  http://127.0.0.1/things  ");
		expect(f.last()).toMatchObject({ method: "PUT", url: "http://127.0.0.1/things?page=2&flag" });
		f.commit(f.input("rb-form-query", 0, 1), "3");
		f.commit(f.input("rb-form-headers", 1, 0), "X-Span");
		f.commit(f.parent.querySelector("textarea.rb-form-body") as HTMLTextAreaElement, '{"a": 2}');
		expect(f.last()).toMatchObject({
			url: "http://127.0.0.1/things?page=3&flag",
			headers: [
				["Content-Type", "application/json"],
				["X-Span", "1"],
			],
			body: '{"a": 2}',
		});
	});

	it("keeps a bare query flag bare until it gets a value", () => {
		const f = edit(requestOf(...POST));
		f.commit(f.input("rb-form-query", 0, 1), "2");
		expect(f.last().url).toBe("http://127.0.0.1/items?page=2&flag");
		f.commit(f.input("rb-form-query", 1, 1), "on");
		expect(f.last().url).toBe("http://127.0.0.1/items?page=2&flag=on");
	});

	it("removes a row at once, writing the request without it", () => {
		const f = edit(requestOf(...POST));
		f.remove("rb-form-headers", 0);
		expect(f.last().headers).toEqual([["X-Trace", "1"]]);
		expect(f.rows("rb-form-headers")).toEqual([["X-Trace", "1"]]);
		f.remove("rb-form-query", 1);
		expect(f.last().url).toBe("http://127.0.0.1/items?page=2");
	});

	it("adds an empty row that writes nothing until it has a name", () => {
		const f = edit(requestOf("GET http://127.0.0.1/"));
		f.add("rb-form-headers");
		expect(f.written).toEqual([]);
		expect(f.rows("rb-form-headers")).toEqual([["", ""]]);
		f.commit(f.input("rb-form-headers", 0, 1), "v");
		expect(f.last().headers).toEqual([]);
		f.commit(f.input("rb-form-headers", 0, 0), "Accept");
		expect(f.last().headers).toEqual([["Accept", "v"]]);
	});

	it("edits a form-urlencoded body as rows", () => {
		const f = edit(requestOf("POST http://127.0.0.1/login", "Content-Type: application/x-www-form-urlencoded", "", "user=ada&pass=x"));
		expect(f.parent.querySelector("textarea")).toBeNull();
		expect(f.rows("rb-form-body-rows")).toEqual([
			["user", "ada"],
			["pass", "x"],
		]);
		f.commit(f.input("rb-form-body-rows", 1, 1), "{{password}}");
		expect(f.last().body).toBe("user=ada&pass={{password}}");
	});

	it("offers a method the block uses beyond the basic ones, and removes itself when unloaded", () => {
		const f = edit(requestOf("PROPFIND http://127.0.0.1/dav"));
		expect(Array.from(f.method().options).map((o) => o.value)).toContain("PROPFIND");
		expect(f.method().value).toBe("PROPFIND");
		f.editor.unload();
		expect(f.parent.querySelector(".rb-form")).toBeNull();
	});
});
