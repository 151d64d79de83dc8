import { Component } from "obsidian";
import { classifyBody } from "../../runner/response/content-type";
import { formatBytes } from "../../runner/response/format";
import { shownRawHead, shownRequest } from "../../runner/request";
import { bodyText, type HttpView } from "../../runner/http/http-run";
import { VirtualText } from "./virtual-text";

/** The request and response as wire text, references already resolved. */
export function wireText(s: HttpView): string {
	const parts: string[] = [];
	const req = s.request;
	if (req) {
		// Secrets are masked where they were substituted (history, Raw tab and terminal show the same).
		const shown = shownRequest(req);
		const head = s.rawRequestHead ? shownRawHead(s.rawRequestHead, req) : `${req.method} ${shown.url} HTTP/1.1\r\n${shown.headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`;
		parts.push(head.replace(/\r\n/g, "\n") + shown.body);
	}
	if (s.head) {
		const h = s.head;
		const status = `HTTP/${h.httpVersion} ${h.status} ${h.statusText}`.trimEnd();
		const body = s.body ? (classifyBody(h.headers, s.body).kind === "binary" ? `[binary body, ${formatBytes(s.body.byteLength)}]` : bodyText(s)) : "";
		parts.push(`${status}\n${h.headers.map(([n, v]) => `${n}: ${v}`).join("\n")}\n\n${body}`);
	}
	return parts.join("\n\n");
}

export class RawView extends Component {
	constructor(
		private readonly parent: HTMLElement,
		private readonly snapshot: HttpView,
	) {
		super();
	}

	override onload(): void {
		const view = this.addChild(new VirtualText(this.parent, "rb-code rb-raw"));
		view.setText(wireText(this.snapshot));
		view.renderNow();
	}
}
