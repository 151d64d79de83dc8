import { Plugin } from "obsidian";

/** Plugin entry: wires adapters and registers processors; no heavy work here (sql.js loads lazily). */
export default class RunnableBlocksPlugin extends Plugin {
	override onload(): void {
		this.registerMarkdownCodeBlockProcessor("http", (source, el) => {
			el.createEl("pre", { text: source, cls: "rb-source" });
		});
	}
}
