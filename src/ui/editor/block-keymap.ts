import { Prec, type Extension } from "@codemirror/state";
import { keymap, type EditorView } from "@codemirror/view";
import type { ActionOf } from "../../settings/keymap";
import { runnableBlockAt, viewTarget, type ActionTarget } from "../action-target";
import { noteBlocks } from "./note-blocks";

/**
 * A highest-precedence keymap for the block actions (docs/shortcuts.md) that acts only when the cursor
 * is inside a runnable block; anywhere else the keys fall through to Obsidian untouched, and so
 * does a key whose action did not act.
 */
export function blockKeymap(bindings: ReadonlyArray<{ action: ActionOf<"block">; key: string }>, perform: (action: ActionOf<"block">, target: ActionTarget) => boolean): Extension {
	return [
		noteBlocks,
		Prec.highest(
			keymap.of(
				bindings.map(({ action, key }) => ({
					key,
					run: (view: EditorView) => {
						const target = viewTarget(view);
						return runnableBlockAt(target) ? perform(action, target) : false;
					},
					preventDefault: false,
				})),
			),
		),
	];
}
