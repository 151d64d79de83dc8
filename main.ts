import { Plugin, type View, type ViewCreator, type WorkspaceLeaf } from "obsidian";
import type * as Core from "./src/ui/plugin-core";
import { CHAT_VIEW_TYPE } from "./src/ui/chat/chat-view-type";
import { coreCarrier } from "./src/ui/plugin-core-carrier";
import { oneTaskEach } from "./src/ui/task-steps";
import { prepareTextModule } from "./src/ui/text-module";
import { VCS_VIEW_TYPE } from "./src/ui/vcs/vcs-view-type";

/**
 * The fence languages with a processor: each kind written in its own fence that has a renderer
 * (src/ui/block-renderers.ts; sse and websocket are written in ```http). Names only, so that
 * Obsidian's start compiles none of the kinds' code; tests/unit/main.test.ts keeps this list equal
 * to the registries.
 */
export const FENCE_LANGUAGES = ["http", "db", "textdiff", "http-response"] as const;

/** The panels' view types: registered at onload, so that Obsidian restores an open panel at start; the core gives their views. */
export const VIEW_TYPES: readonly string[] = [CHAT_VIEW_TYPE, VCS_VIEW_TYPE];

/**
 * Plugin entry. Obsidian's start pays for this file alone: onload registers a processor per fence
 * language and the panels' view types, nothing else. The plugin at work (`PluginCore`: editor
 * extensions, commands, panels, settings) is a text module of main.js, required once the
 * workspace is ready, as Obsidian's guidance on load time advises, or sooner for a block or panel
 * shown before that (docs/architecture.md, "Start").
 */
export default class RunnableBlocksPlugin extends Plugin {
	private core: Core.PluginCore | null = null;
	/** The views of VIEW_TYPES, lent by the core when it registers them. */
	private readonly views = new Map<string, ViewCreator>();

	override onload(): void {
		for (const language of FENCE_LANGUAGES) {
			this.registerMarkdownCodeBlockProcessor(language, (source, el, ctx) => {
				const child = this.started().reading(language, source, el, ctx);
				if (child) ctx.addChild(child);
			});
		}
		for (const type of VIEW_TYPES) super.registerView(type, (leaf) => this.viewOf(type, leaf));
		// Enabled once Obsidian is up (the layout is ready): the core starts now. At Obsidian's start it
		// waits for the layout, then takes one task per step (coreSteps), none of them long.
		if (this.app.workspace.layoutReady) this.started();
		else {
			// Obsidian keeps this callback after the plugin is disabled: a plugin gone by then starts nothing.
			let unloaded = false;
			this.register(() => (unloaded = true));
			this.app.workspace.onLayoutReady(() => {
				if (unloaded) return;
				const [first, ...rest] = [...coreSteps(), () => void this.started()];
				first();
				this.register(oneTaskEach(rest));
			});
		}
	}

	/** The core's registration of a view type onload registered already: kept for viewOf. */
	override registerView(type: string, creator: ViewCreator): void {
		if (VIEW_TYPES.includes(type)) this.views.set(type, creator);
		else super.registerView(type, creator);
	}

	override onunload(): void {
		this.core?.unload();
	}

	private viewOf(type: string, leaf: WorkspaceLeaf): View {
		this.started();
		const creator = this.views.get(type);
		if (!creator) throw new Error(`The plugin registers no view of type ${type}`);
		return creator(leaf);
	}

	/** The plugin at work, started on the first call. */
	private started(): Core.PluginCore {
		this.core ??= new (coreModule().PluginCore)(this);
		return this.core;
	}
}

/**
 * The core's code made ready to run, one step per task: read out of main.js, compiled, evaluated.
 * Each step costs about as much as the next for the core's 287 KiB: one task for the three was long.
 * From source (the tests) the core is an ordinary module: one step.
 */
function coreSteps(): (() => void)[] {
	const carrier = coreCarrier;
	if (!carrier) return [() => void coreModule()];
	return [() => prepareTextModule(carrier, "text"), () => prepareTextModule(carrier, "compile"), () => void coreModule()];
}

/** The core's module: a text module, compiled and evaluated on the first call (see above). */
function coreModule(): typeof Core {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	return require("./src/ui/plugin-core") as typeof Core;
}
