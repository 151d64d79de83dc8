/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { App } from "obsidian";
import { editorLivePreviewField, installDomHelpers } from "../../../e2e/host/obsidian-shim";
import { createEngine } from "../../../../src/runner/engine";
import { defaultSettings } from "../../../../src/settings/user-settings";
import type { BlockHost } from "../../../../src/ui/block-host";
import { blockWidgets } from "../../../../src/ui/editor/block-widgets";
import { Notes } from "../../../../src/ui/notes";
import { answering } from "../../../support/answering-transport";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

installDomHelpers();
// The first panel loads the http view's modules, compiled on first require.
jest.setTimeout(30_000);

const NOTE = ["intro", "```http", "get http://127.0.0.1/a", "```", "", "```http display=output", "POST http://127.0.0.1/b", "```", "", "```js", "1", "```", "end"].join("\n");
const offsetOf = (text: string) => NOTE.indexOf(text);

/** All a rendered block sees of the plugin, with a real engine that sends nothing. */
function host(): BlockHost {
	const app = {} as App;
	const services = { transport: () => answering({}), history: () => null, environment: () => ({ name: "", variables: {}, secretValues: [], secretNames: [], unsetSecretNames: [] }), defaultTimeoutMs: () => 1000 };
	const engine = createEngine(services);
	return { app, engine, services, notes: new Notes(app), settings: defaultSettings, session: (path) => engine.sessions.note(path), runKeyLabel: () => "Ctrl+Enter" };
}

function editor(opts: { livePreview?: boolean; at?: number } = {}) {
	const view = new EditorView({
		state: EditorState.create({ doc: NOTE, selection: { anchor: opts.at ?? 0 }, extensions: [editorLivePreviewField.init(() => opts.livePreview ?? false), blockWidgets(host())] }),
		parent: document.body,
	});
	const panels = () => [...view.dom.querySelectorAll<HTMLElement>(".rb-editor-panel")];
	return { view, panels, moveTo: (at: number) => view.dispatch({ selection: { anchor: at } }) };
}

afterEach(() => document.body.empty());

describe("blockWidgets", () => {
	it("puts a response panel under every runnable block in Source mode, with its display, and none under other fences", () => {
		const e = editor();
		expect(e.panels().map((p) => p.dataset.display)).toEqual(["split", "output"]);
		expect(e.panels()[0].previousElementSibling?.textContent).toBe("```");
		e.view.destroy();
	});

	it("colours the method word by its verb, as written", () => {
		const e = editor();
		const marks = [...e.view.dom.querySelectorAll(".rb-method")].map((m) => [m.textContent, m.className]);
		expect(marks).toEqual([
			["get", "rb-method rb-method-get"],
			["POST", "rb-method rb-method-post"],
		]);
		e.view.destroy();
	});

	it("in Live Preview shows the panel only under the block being edited, following the cursor", () => {
		const e = editor({ livePreview: true, at: 0 });
		expect(e.panels()).toHaveLength(0);
		e.moveTo(offsetOf("POST"));
		expect(e.panels().map((p) => p.dataset.display)).toEqual(["output"]);
		e.moveTo(offsetOf("end"));
		expect(e.panels()).toHaveLength(0);
		expect(e.view.dom.querySelectorAll(".rb-method")).toHaveLength(2);
		e.view.destroy();
	});

	it("keeps a block's panel on screen while the block is typed in, and drops it with the block", () => {
		const e = editor();
		const [first] = e.panels();
		const at = offsetOf("/a") + 2;
		e.view.dispatch({ changes: { from: at, insert: "bc" } });
		expect(e.panels()[0]).toBe(first);
		e.view.dispatch({ changes: { from: offsetOf("```http\nget"), to: offsetOf("```http display") } });
		expect(e.panels().map((p) => p.dataset.display)).toEqual(["output"]);
		expect(first.isConnected).toBe(false);
		e.view.destroy();
	});
});
