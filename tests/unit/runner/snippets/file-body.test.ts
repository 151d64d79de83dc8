import type { FilePart } from "../../../../src/runner/request";
import { onlyFile, snippetBody } from "../../../../src/runner/snippets/file-body";
import { ExportError } from "../../../../src/runner/snippets/quote";

const file = (path: string, resolveReferences = false): FilePart => ({ kind: "file", path, resolveReferences, encoding: null });
const locate = (written: string) => (written === "./a.bin" ? "/vault/a.bin" : null);

describe("snippetBody", () => {
	it("is null for a body without file parts", () => {
		expect(snippetBody({ headers: [], body: "x" } as never, locate)).toBeNull();
	});

	it("gives the files by the host's path and the text framed as on the wire, empty text left out", () => {
		const multipart = {
			headers: [["Content-Type", "multipart/form-data; boundary=b"]] as Array<[string, string]>,
			fileParts: [{ kind: "text", text: "--b\n\n" }, file("./a.bin"), { kind: "text", text: "" }, { kind: "text", text: "\n--b--" }] as FilePart[],
		};
		expect(snippetBody(multipart, locate)).toEqual([
			{ kind: "text", text: "--b\r\n\r\n" },
			{ kind: "file", path: "/vault/a.bin" },
			{ kind: "text", text: "\r\n--b--" },
		]);
	});

	it("refuses <@, a host that cannot name files, and a file that is not there", () => {
		expect(() => snippetBody({ headers: [], fileParts: [file("./a.bin", true)] }, locate)).toThrow(new ExportError('"<@ ./a.bin" resolves references inside the file, which a snippet cannot do: copy as .http, or run the block'));
		expect(() => snippetBody({ headers: [], fileParts: [file("./a.bin")] }, undefined)).toThrow(/on desktop only/);
		expect(() => snippetBody({ headers: [], fileParts: [file("./gone.bin")] }, locate)).toThrow("the body file ./gone.bin was not found beside the note or in the vault");
	});
});

describe("onlyFile", () => {
	it("names the file of a body that is exactly one file", () => {
		expect(onlyFile([{ kind: "file", path: "/a" }])).toBe("/a");
		expect(onlyFile([{ kind: "text", text: "x" }])).toBeNull();
		expect(onlyFile([{ kind: "file", path: "/a" }, { kind: "text", text: "\n" }])).toBeNull();
		expect(onlyFile([])).toBeNull();
	});
});
