import { bodyChunks } from "../file-parts";
import type { PreparedRequest } from "../request";
import { ExportError } from "./quote";

/** How a snippet names a `< file` part's file: the host's path for it, or null when it has none. */
export type LocateFile = (written: string) => string | null;

/** A body with `< file` parts as a snippet writes it: text framed as on the wire, and files by path. */
export type SnippetBody = Array<{ kind: "text"; text: string } | { kind: "file"; path: string }>;

/**
 * The body of a request with `< file` parts, for a snippet that reads the files when it runs (so
 * binary files go out byte for byte); null without file parts. `<@` parts are refused: their
 * references are resolved inside the file, which no tool does.
 */
export function snippetBody(req: Pick<PreparedRequest, "headers" | "fileParts">, locate: LocateFile | undefined): SnippetBody | null {
	const chunks = bodyChunks(req);
	if (!chunks) return null;
	const body: SnippetBody = [];
	for (const c of chunks) {
		if (c.kind === "text") {
			if (c.text !== "") body.push(c);
			continue;
		}
		if (c.resolveReferences) throw new ExportError(`"<@ ${c.path}" resolves references inside the file, which a snippet cannot do: copy as .http, or run the block`, "file_references", { path: c.path });
		if (!locate) throw new ExportError(`a body with "< ${c.path}" is exported as a snippet on desktop only (the snippet reads the file from disk): copy as .http, or run the block`, "file_desktop_only", { path: c.path });
		const path = locate(c.path);
		if (path === null) throw new ExportError(`the body file ${c.path} was not found beside the note or in the vault`, "file_not_found", { path: c.path });
		body.push({ kind: "file", path });
	}
	return body;
}

/** A file body that is exactly one file, the case every tool can send by name. */
export function onlyFile(body: SnippetBody): string | null {
	return body.length === 1 && body[0].kind === "file" ? body[0].path : null;
}
