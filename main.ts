import { Plugin } from "obsidian";
import { renderBlockPreview } from "./src/ui/block-preview";

/** Plugin entry: wires adapters and registers processors; no heavy work here (sql.js loads lazily). */
export default class RunnableBlocksPlugin extends Plugin {
	override onload(): void {
		this.registerMarkdownCodeBlockProcessor("http", (source, el, ctx) => renderBlockPreview(source, el, ctx));
	}
}
