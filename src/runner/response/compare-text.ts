import { normalizeJson } from "../../blocks";
import type { HttpRun } from "../http/http-run";
import { classifyBody, responseText } from "./content-type";
import { formatBytes } from "./format";
import { prettyJson } from "./pretty-json";

/** One side of a response comparison: its body and headers as text. */
export interface ResponseSide {
	/** What the side is called ("login, 10:42:03"). */
	label: string;
	body: string;
	headers: string;
}

/** Headers as `Name: value` lines, status line first, wire order kept (repeats are differences too). */
export function headersText(snapshot: Pick<HttpRun, "head">): string {
	const head = snapshot.head;
	if (!head) return "";
	return [`${head.status} ${head.statusText}`.trim(), ...head.headers.map(([n, v]) => `${n}: ${v}`)].join("\n");
}

/**
 * Two bodies ready to compare: pretty-printed JSON when both are JSON (key order kept, so a
 * reordered key shows), else the decoded text; a binary body is described, never shown.
 */
export function comparableBodies(a: Pick<HttpRun, "head" | "body">, b: Pick<HttpRun, "head" | "body">): { left: string; right: string; json: boolean } {
	const left = bodyAsText(a);
	const right = bodyAsText(b);
	if (left.kind === "json" && right.kind === "json" && normalizeJson(left.text).ok && normalizeJson(right.text).ok) {
		return { left: prettyJson(left.text), right: prettyJson(right.text), json: true };
	}
	return { left: left.text, right: right.text, json: false };
}

function bodyAsText(s: Pick<HttpRun, "head" | "body">): { kind: string; text: string } {
	if (!s.body || !s.head) return { kind: "empty", text: "" };
	const type = classifyBody(s.head.headers, s.body);
	if (type.kind === "binary" || type.kind === "image") return { kind: type.kind, text: `(${type.kind} body, ${type.mime || "no type"}, ${formatBytes(s.body.byteLength)})` };
	return { kind: type.kind, text: responseText(s.head.headers, s.body) };
}
