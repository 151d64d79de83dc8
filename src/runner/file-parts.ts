/**
 * `< path` and `<@ path` body parts (docs/blocks.md, issue 14): the file's bytes go on the wire in
 * place of the line, `<@` with references resolved in the file's text (REST Client, JetBrains,
 * httpyac). The host reads files through the `BodyFiles` port; this module resolves the path
 * and assembles the bytes.
 */
import { formBody, multipartCrlf, resolveTemplate, type ReferenceSources } from "../blocks";
import { failedError } from "./failures";
import type { FilePart, PreparedRequest } from "./request";
import type { RunError } from "./result";

/** How the host reads a body file. */
export interface BodyFiles {
	/** The bytes at `path` (a vault path, or an absolute path where the note is outside a vault); null when there is no such file. */
	read(path: string): Promise<Uint8Array | null>;
	/**
	 * Where a snippet names the file at `path`, synchronously (export runs inside the user's
	 * gesture): an absolute path where the host has one; null when there is no such file. A host
	 * without it cannot export `< file` bodies as snippets.
	 */
	locate?(path: string): string | null;
}

export type FileCandidates = { ok: true; paths: string[] } | { ok: false; reason: "outside" };

/** `a/./b/../c` → `a/c`; null when `..` climbs above the start of a relative path. */
function normalize(path: string): string | null {
	const absolute = path.startsWith("/");
	const out: string[] = [];
	for (const seg of path.split("/")) {
		if (seg === "" || seg === ".") continue;
		if (seg === "..") {
			if (out.length === 0) {
				if (!absolute) return null;
				continue;
			}
			out.pop();
		} else out.push(seg);
	}
	return (absolute ? "/" : "") + out.join("/");
}

/**
 * Where a written path may be, in order: beside the note (the peers resolve against the `.http`
 * file), then from the vault root. A note outside a vault (CLI) has an absolute path: the file is
 * beside it, or absolute. Inside a vault, a path that leaves it (`../` past the root, `C:\…`) is
 * refused: the plugin reads only the vault.
 */
export function fileCandidates(notePath: string, written: string): FileCandidates {
	const path = written.trim();
	const noteIsAbsolute = notePath.startsWith("/");
	const dir = notePath.includes("/") ? notePath.slice(0, notePath.lastIndexOf("/")) : "";
	if (/^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\")) return { ok: false, reason: "outside" };
	if (noteIsAbsolute) {
		const p = normalize(path.startsWith("/") ? path : `${dir}/${path}`);
		return p === null ? { ok: false, reason: "outside" } : { ok: true, paths: [p] };
	}
	const paths: string[] = [];
	const beside = path.startsWith("/") ? null : normalize(dir ? `${dir}/${path}` : path);
	if (beside !== null) paths.push(beside);
	// Vault-relative: `/x`, or `x` not found beside the note; never for an explicit `./` or `../`.
	if (!/^\.\.?\//.test(path)) {
		const root = normalize(path.replace(/^\/+/, ""));
		if (root !== null && !paths.includes(root)) paths.push(root);
	}
	return paths.length > 0 ? { ok: true, paths } : { ok: false, reason: "outside" };
}

/**
 * The request with its `< file` parts read: `bodyBytes` holds the wire body (text parts framed
 * as the whole body is: CRLF for multipart, lines joined for forms). A request without file parts
 * comes back unchanged. A missing file fails the run before anything is sent (httpyac sends an
 * empty part instead; docs/interop.md lists the difference).
 */
/** A piece of a wire body with `< file` parts: text already framed as the body is (CRLF for multipart, form lines joined), or a file. */
export type BodyChunk = { kind: "text"; text: string } | Extract<FilePart, { kind: "file" }>;

/** The request's file-part body as the wire sees it, in order; null without file parts. */
export function bodyChunks(request: Pick<PreparedRequest, "headers" | "fileParts">): BodyChunk[] | null {
	if (!request.fileParts) return null;
	return request.fileParts.map((part) => (part.kind === "text" ? { kind: "text", text: formBody(request.headers, multipartCrlf(request.headers, part.text)) } : part));
}

/** The path a snippet names for a `< file` part: the first candidate the host has (see `fileCandidates`); null when none. */
export function locateBodyFile(files: BodyFiles | undefined, notePath: string, written: string): string | null {
	const where = fileCandidates(notePath, written);
	if (!where.ok || !files?.locate) return null;
	for (const path of where.paths) {
		const found = files.locate(path);
		if (found !== null) return found;
	}
	return null;
}

export async function withFileParts(
	request: PreparedRequest,
	sources: ReferenceSources,
	files: BodyFiles | undefined,
	notePath: string,
): Promise<{ ok: true; request: PreparedRequest } | { ok: false; error: RunError }> {
	const parts = bodyChunks(request);
	if (!parts) return { ok: true, request };
	const chunks: Uint8Array[] = [];
	const encoder = new TextEncoder();
	for (const part of parts) {
		if (part.kind === "text") {
			chunks.push(encoder.encode(part.text));
			continue;
		}
		const found = await readNoteFile(files, notePath, part.path, BODY_FILE);
		if (!found.ok) return found;
		if (!part.resolveReferences) {
			chunks.push(found.bytes);
			continue;
		}
		let text: string;
		try {
			text = new TextDecoder(part.encoding || "utf-8").decode(found.bytes);
		} catch {
			// A label TextDecoder does not know: UTF-8, as REST Client falls back to.
			text = new TextDecoder().decode(found.bytes);
		}
		chunks.push(encoder.encode(resolveTemplate(text, sources).value));
	}
	const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
	let at = 0;
	for (const c of chunks) {
		bytes.set(c, at);
		at += c.byteLength;
	}
	return { ok: true, request: { ...request, bodyBytes: bytes } };
}

/** The failure codes of a file a block names, by what it is for. */
export interface NoteFileCodes {
	missing: "body_file_missing" | "cert_file_missing";
	outside: "body_file_outside" | "cert_file_outside";
}

const BODY_FILE: NoteFileCodes = { missing: "body_file_missing", outside: "body_file_outside" };

/** The bytes of a file a block names, at the first of its `fileCandidates` the host has. */
export async function readNoteFile(files: BodyFiles | undefined, notePath: string, written: string, codes: NoteFileCodes): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; error: RunError }> {
	const where = fileCandidates(notePath, written);
	if (!where.ok) return { ok: false, error: failedError(codes.outside, "write it relative to the note or to the vault root", written) };
	if (!files) return { ok: false, error: failedError(codes.missing, "this host reads no files", written) };
	for (const path of where.paths) {
		let bytes: Uint8Array | null;
		try {
			bytes = await files.read(path);
		} catch (e) {
			return { ok: false, error: failedError(codes.missing, `${path}: ${e instanceof Error ? e.message : String(e)}`, written) };
		}
		if (bytes) return { ok: true, bytes };
	}
	return { ok: false, error: failedError(codes.missing, `looked for ${where.paths.join(", ")}`, written) };
}
