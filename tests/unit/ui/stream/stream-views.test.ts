/** @jest-environment jsdom */
import "../../../support/jsdom-codecs";
import { NoteSession } from "../../../../src/runner/session";
import type { PreparedRequest } from "../../../../src/runner/request";
import { textMessage } from "../../../../src/runner/stream/message-log";
import { StreamProgress } from "../../../../src/runner/stream/stream-progress";
import type { ResponseHead } from "../../../../src/runner/transport";
import { STREAM_RUN_VIEW } from "../../../../src/ui/stream/stream-views";
import { StreamView } from "../../../../src/ui/stream/stream-view";
import { ManualFrames } from "../../../support/stream-dom";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));

const KEY = "note.md#feed";
const request = { method: "GET", url: "http://127.0.0.1:1/", headers: [] } as unknown as PreparedRequest;
const head = (status: number): ResponseHead => ({ status, statusText: status === 101 ? "Switching Protocols" : "OK", httpVersion: "1.1", headers: [], url: "http://127.0.0.1:1/", redirects: 0 });

/** A stream run driven through the core's own progress, publishing to `session`, on a clock that stands still. */
const streamOn = (kind: "sse" | "websocket", session: NoteSession) => new StreamProgress(kind, request, "ws", (s) => session.update(KEY, s), () => 1000);

afterEach(() => document.body.replaceChildren());

describe("STREAM_RUN_VIEW", () => {
	it("shows a stream's run, but a refused upgrade and any other kind's run are the tabs'", () => {
		const open = streamOn("websocket", new NoteSession());
		open.opened(head(101));
		const refused = streamOn("websocket", new NoteSession()).finish("failed", "connecting", { code: null, reason: "" }, { head: { ...head(401), statusText: "Unauthorized" }, body: new TextEncoder().encode("no") });
		expect([open.run, refused, { kind: "http", state: "done", receivedBytes: 0 } as const, { state: "idle" } as const].map((run) => STREAM_RUN_VIEW.shows(run))).toEqual([true, false, false, false]);
	});

	it("mounts the stream panel of the block's runs, which follows the session itself", () => {
		const frames = new ManualFrames();
		const session = new NoteSession();
		const progress = streamOn("sse", session);
		const view = STREAM_RUN_VIEW.mount(document.body, session, KEY, progress.run);
		expect(view).toBeInstanceOf(StreamView);
		view.load();
		progress.opened(head(200));
		progress.add(textMessage("received", 1, "tick"));
		frames.next();
		const panel = document.body.querySelector<HTMLElement>(".rb-stream");
		expect(panel?.dataset.protocol).toBe("sse");
		expect(panel?.querySelector(".rb-stream-count")?.textContent).toBe("1 message");
	});
});
