import type { StreamRun } from "../../runner/stream/stream-run";
import type { RunView } from "../fence-views";
import { SessionStreamModel, showsAsStream } from "./stream-adapter";
import { StreamView } from "./stream-view";

/**
 * The stream kinds' part of the ```http fence's views, which the renderer registry lends it
 * (src/ui/block-renderers.ts). main.js carries this room as a text module, evaluated with the first
 * stream shown (docs/architecture.md, "Text modules").
 */

/** A stream's run in the response panel: the stream panel in place of the tabs, but for a refused upgrade. */
export const STREAM_RUN_VIEW: RunView<StreamRun> = {
	shows: showsAsStream,
	mount: (parent, session, key, run) => new StreamView(parent, new SessionStreamModel(session, key, run)),
};

export { renderMobileHeadersNotice } from "./mobile-headers";
