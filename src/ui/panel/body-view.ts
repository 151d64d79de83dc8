import { Component } from "obsidian";
import { classifyBody, type BodyType } from "../../runner/response/content-type";
import { formatBytes, toBase64 } from "../../runner/response/format";
import { JsonPrettifier } from "../../runner/response/pretty-json";
import { prettyMarkup } from "../../runner/response/pretty-xml";
import type { ResponseHead } from "../../runner/transport";
import { t } from "../strings";
import { renderJsonLine } from "./json-highlight";
import { VirtualText } from "./virtual-text";

/** Bytes decoded and formatted at a time: a few milliseconds of work, the most a step overruns its budget by. */
const PIECE_BYTES = 32 * 1024;
/**
 * Main-thread time (ms, a frame) a formatting step takes before the page gets a turn. Steps of a
 * fixed 256 KB took 50–300 ms on a busy machine, a long task for whatever the user clicked then
 * (bench/pin); timed steps end sooner where the machine is slower, and a fast one pays few turns.
 */
const STEP_BUDGET_MS = 16;
/** Markup larger than this is shown as received rather than re-indented in one go. */
const MARKUP_PRETTY_LIMIT = 1024 * 1024;
/** Binary bodies show the base64 of at most this many bytes. */
const BINARY_PREVIEW_BYTES = 48 * 1024;

function nextFrame(): Promise<void> {
	return new Promise((resolve) => window.setTimeout(resolve, 0));
}

/**
 * The Body tab. Text is decoded and pretty-printed a slice at a time between frames,
 * shown through a virtualised view; images go through a blob: URL in an <img>; nothing
 * from the response is ever inserted as markup.
 */
export class BodyView extends Component {
	private readonly el: HTMLElement;
	private objectUrl: string | null = null;
	private cancelled = false;
	/** Resolves once the whole body is formatted (tests and "save" wait for it). */
	done: Promise<void> = Promise.resolve();

	constructor(
		parent: HTMLElement,
		private readonly head: ResponseHead,
		private readonly body: Uint8Array,
		/** The clock the formatting steps are timed by (ms). */
		private readonly now: () => number = () => performance.now(),
	) {
		super();
		this.el = parent.createDiv({ cls: "rb-body" });
	}

	override onload(): void {
		const type = classifyBody(this.head.headers, this.body);
		this.el.dataset.kind = type.kind;
		switch (type.kind) {
			case "empty":
				this.el.createDiv({ cls: "rb-muted", text: t("emptyBody") });
				return;
			case "image":
				this.showImage(type);
				return;
			case "binary":
				this.showBinary();
				return;
			default:
				this.done = this.showText(type);
		}
	}

	override onunload(): void {
		this.cancelled = true;
		if (this.objectUrl) URL.revokeObjectURL(this.objectUrl);
		this.el.remove();
	}

	private showImage(type: BodyType): void {
		// A blob: URL of the bytes with the declared raster type: an <img> never runs script.
		this.objectUrl = URL.createObjectURL(new Blob([this.body as BlobPart], { type: type.mime }));
		const figure = this.el.createDiv({ cls: "rb-image" });
		figure.createEl("img", { attr: { src: this.objectUrl, alt: `${type.mime}, ${formatBytes(this.body.byteLength)}` } });
		figure.createDiv({ cls: "rb-muted", text: `${type.mime}, ${formatBytes(this.body.byteLength)}` });
	}

	private showBinary(): void {
		const shown = Math.min(this.body.byteLength, BINARY_PREVIEW_BYTES);
		this.el.createDiv({ cls: "rb-muted", text: t("binaryBody", { size: formatBytes(this.body.byteLength), shown: formatBytes(shown) }) });
		const view = this.addChild(new VirtualText(this.el, "rb-code"));
		view.setText(toBase64(this.body.subarray(0, shown)).replace(/.{1,76}/g, "$&\n").trimEnd());
	}

	private async showText(type: BodyType): Promise<void> {
		const view = this.addChild(new VirtualText(this.el, `rb-code rb-lang-${type.kind}`, type.kind === "json" ? renderJsonLine : undefined));
		const status = this.el.createDiv({ cls: "rb-muted rb-body-status" });
		let decoder: TextDecoder;
		try {
			decoder = new TextDecoder(type.charset ?? "utf-8");
		} catch {
			decoder = new TextDecoder("utf-8");
		}
		const markup = type.kind === "xml" || type.kind === "html" || type.kind === "svg";
		if (markup && this.body.byteLength <= MARKUP_PRETTY_LIMIT) {
			view.setText(prettyMarkup(decoder.decode(this.body)));
			view.renderNow();
			status.setText(t("showingLines", { lines: view.lineCount }));
			return;
		}
		const pretty = type.kind === "json" ? new JsonPrettifier() : null;
		const total = this.body.byteLength;
		let stepStart = this.now();
		for (let offset = 0; offset < total; offset += PIECE_BYTES) {
			const end = Math.min(total, offset + PIECE_BYTES);
			const text = decoder.decode(this.body.subarray(offset, end), { stream: end < total });
			view.append(pretty ? pretty.push(text) : text);
			if (offset === 0) view.renderNow();
			if (end < total && this.now() - stepStart >= STEP_BUDGET_MS) {
				status.setText(t("loadingMore", { done: formatBytes(end), total: formatBytes(total) }));
				await nextFrame();
				if (this.cancelled) return;
				stepStart = this.now();
			}
		}
		view.finish();
		view.renderNow();
		status.setText(t("showingLines", { lines: view.lineCount }));
	}
}
