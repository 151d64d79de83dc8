import { readResult } from "../../../src/runner/block-runners";
import { parseNote, type HttpNoteBlock } from "../../../src/blocks";
import { fileCandidates, withFileParts, type BodyFiles } from "../../../src/runner/file-parts";
import { prepareRequest, referenceSources, type PrepareContext } from "../../../src/runner/prepare";

/** A vault in memory: path → bytes. */
function vault(files: Record<string, Uint8Array | string>): BodyFiles & { reads: string[] } {
	const reads: string[] = [];
	return {
		reads,
		read: (path) => {
			reads.push(path);
			const f = files[path];
			return Promise.resolve(f === undefined ? null : typeof f === "string" ? new TextEncoder().encode(f) : f);
		},
	};
}

const ctx = (env: Record<string, string> = {}): PrepareContext => ({ env, aliases: new Set(), result: () => undefined, read: readResult });

async function wire(text: string, files: BodyFiles | undefined, env: Record<string, string> = {}, notePath = "notes/api.md") {
	const block = parseNote(`\`\`\`http\n${text}\n\`\`\``)[0] as HttpNoteBlock;
	const prepared = prepareRequest(block, ctx(env));
	if (!prepared.ok) throw new Error(prepared.error.message);
	const read = await withFileParts(prepared.request, referenceSources(ctx(env)), files, notePath);
	return { prepared: prepared.request, read };
}

describe("fileCandidates", () => {
	it("looks beside the note first, then from the vault root", () => {
		expect(fileCandidates("notes/api.md", "data/body.json")).toEqual({ ok: true, paths: ["notes/data/body.json", "data/body.json"] });
		expect(fileCandidates("api.md", "body.json")).toEqual({ ok: true, paths: ["body.json"] });
	});

	it("reads ./ and ../ beside the note only", () => {
		expect(fileCandidates("a/b/api.md", "./x.json")).toEqual({ ok: true, paths: ["a/b/x.json"] });
		expect(fileCandidates("a/b/api.md", "../assets/x.pdf")).toEqual({ ok: true, paths: ["a/assets/x.pdf"] });
	});

	it("reads /x from the vault root", () => {
		expect(fileCandidates("a/api.md", "/data/x.json")).toEqual({ ok: true, paths: ["data/x.json"] });
	});

	it("refuses paths that leave the vault", () => {
		expect(fileCandidates("a/api.md", "../../x")).toEqual({ ok: false, reason: "outside" });
		expect(fileCandidates("api.md", "C:\\Users\\demo.xml")).toEqual({ ok: false, reason: "outside" });
	});

	it("outside a vault (absolute note path) resolves beside the note or absolute", () => {
		expect(fileCandidates("/home/u/api.md", "../x.json")).toEqual({ ok: true, paths: ["/home/x.json"] });
		expect(fileCandidates("/home/u/api.md", "/tmp/x.json")).toEqual({ ok: true, paths: ["/tmp/x.json"] });
	});
});

describe("withFileParts", () => {
	it("leaves a request without file parts as it is", async () => {
		const { prepared, read } = await wire("POST http://h/x\n\nplain", vault({}));
		expect(read).toEqual({ ok: true, request: prepared });
		expect(prepared.bodyBytes).toBeUndefined();
	});

	it("sends a file's bytes unchanged, binary included", async () => {
		const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x0d, 0x0a]);
		const files = vault({ "notes/img.png": bytes });
		const { prepared, read } = await wire("POST http://h/x\nContent-Type: image/png\n\n< ./img.png", files);
		expect(read.ok && read.request.bodyBytes).toEqual(bytes);
		// The shown body names the file.
		expect(prepared.body).toBe("< ./img.png");
	});

	it("falls back to the vault root when the file is not beside the note", async () => {
		const files = vault({ "data/x.json": "{}" });
		const { read } = await wire("POST http://h/x\n\n< data/x.json", files);
		expect(read.ok && new TextDecoder().decode(read.request.bodyBytes)).toBe("{}");
		expect(files.reads).toEqual(["notes/data/x.json", "data/x.json"]);
	});

	it("frames a multipart body with CRLF around the file, and resolves the path's references", async () => {
		const files = vault({ "notes/assets/a.txt": "A\nB" });
		const text = ["POST http://h/x", "Content-Type: multipart/form-data; boundary=b", "", "--b", 'Content-Disposition: form-data; name="f"; filename="a.txt"', "", "< {{dir}}/a.txt", "--b--"].join("\n");
		const { read } = await wire(text, files, { dir: "./assets" });
		expect(read.ok && new TextDecoder().decode(read.request.bodyBytes)).toBe('--b\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nA\nB\r\n--b--');
	});

	it("<@ resolves references inside the file; < does not", async () => {
		const files = vault({ "notes/t.json": '{"id": "{{id}}"}' });
		const at = await wire("POST http://h/x\n\n<@ ./t.json", files, { id: "7" });
		expect(at.read.ok && new TextDecoder().decode(at.read.request.bodyBytes)).toBe('{"id": "7"}');
		const plain = await wire("POST http://h/x\n\n< ./t.json", files, { id: "7" });
		expect(plain.read.ok && new TextDecoder().decode(plain.read.request.bodyBytes)).toBe('{"id": "{{id}}"}');
	});

	it("<@latin1 reads the file as Latin-1 and sends UTF-8", async () => {
		const files = vault({ "notes/d.xml": new Uint8Array([0x43, 0x61, 0x66, 0xe9]) });
		const { read } = await wire("POST http://h/x\n\n<@latin1 ./d.xml", files);
		expect(read.ok && Array.from(read.request.bodyBytes ?? [])).toEqual([0x43, 0x61, 0x66, 0xc3, 0xa9]);
	});

	it("a missing file fails before sending, naming the path and where it looked", async () => {
		const { read } = await wire("POST http://h/x\n\n< ./nope.json", vault({}));
		expect(read).toEqual({ ok: false, error: { code: "body_file_missing", message: 'No file "./nope.json" for the body', detail: "looked for notes/nope.json" } });
	});

	it("a path outside the vault fails, and so does a host that reads no files", async () => {
		const outside = await wire("POST http://h/x\n\n< ../../x", vault({}));
		expect(outside.read.ok ? null : outside.read.error.code).toBe("body_file_outside");
		const none = await wire("POST http://h/x\n\n< ./x", undefined);
		expect(none.read.ok ? null : none.read.error).toEqual({ code: "body_file_missing", message: 'No file "./x" for the body', detail: "this host reads no files" });
	});

	it("a read that throws fails with its reason", async () => {
		const files: BodyFiles = { read: () => Promise.reject(new Error("EACCES")) };
		const { read } = await wire("POST http://h/x\n\n< ./x", files);
		expect(read.ok ? null : read.error.detail).toBe("notes/x: EACCES");
	});
});
