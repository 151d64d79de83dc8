import { Notice } from "obsidian";
import type { NoteBlock } from "../blocks";
import { prepareRequest } from "../runner/prepare";
import { ExportError } from "../runner/snippets/quote";
import { snippet, toCurl, type SnippetFormat } from "../runner/snippets/generators";
import type { ExportHooks } from "./block-actions";
import type { PluginRuntime, RuntimeServices } from "./runtime";

/** Aliases a block's references name: with no result yet, export says to run them first. */
function aliasesOf(block: NoteBlock): Set<string> {
	return new Set(block.references.filter((r) => r.kind === "alias").map((r) => r.inner.split(".")[0]));
}

/**
 * Export to the clipboard. Everything up to `navigator.clipboard.writeText` is synchronous
 * (no await), so the write happens inside the click or key handler's user gesture.
 */
export function exportHooks(runtime: PluginRuntime, services: Pick<RuntimeServices, "environment" | "defaultTimeoutMs">): ExportHooks {
	const write = (filePath: string, block: NoteBlock, make: (req: Parameters<typeof toCurl>[0]) => string, label: string): void => {
		const session = runtime.sessions.note(filePath);
		const prepared = prepareRequest(block, {
			env: services.environment().variables,
			aliases: aliasesOf(block),
			result: (a) => session.get(a),
			defaultTimeoutMs: services.defaultTimeoutMs(),
		});
		if (!prepared.ok) {
			new Notice(`Cannot export: ${prepared.error.message}`);
			return;
		}
		let text: string;
		try {
			text = make(prepared.request);
		} catch (e) {
			new Notice(e instanceof ExportError ? `Cannot export: ${e.message}` : String(e));
			return;
		}
		void navigator.clipboard.writeText(text).then(
			() => new Notice(`Copied as ${label}`),
			(e: unknown) => new Notice(`Could not write to the clipboard: ${e instanceof Error ? e.message : String(e)}`),
		);
	};
	return {
		copy: (filePath, block, format: SnippetFormat) => write(filePath, block, (r) => snippet(format, r, block.alias), format === "http" ? ".http" : format),
		sendAsCurl: (filePath, block) => write(filePath, block, (r) => toCurl(r, { output: `${block.alias ?? "response"}.out` }), "curl with --output"),
	};
}
