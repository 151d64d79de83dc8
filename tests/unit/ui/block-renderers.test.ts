/** @jest-environment jsdom */
import { Platform } from "obsidian";
import { blockHost, memoryVault, readingContext } from "../../support/block-host";
import { blockKey, BLOCK_KINDS, parseNote, type NoteBlock } from "../../../src/blocks";
import { BLOCK_RENDERERS, FENCE_VIEWS, rendererOf } from "../../../src/ui/block-renderers";
import { DbBlockView } from "../../../src/ui/db/db-block-view";
import { DbPanel } from "../../../src/ui/db/db-panel";
import { TextdiffBlockView, TextdiffEditorPanel } from "../../../src/ui/diff/textdiff-block-view";
import { HttpBlockView } from "../../../src/ui/http/http-block-view";
import { ResponsePanel } from "../../../src/ui/panel/response-panel";
import { PinnedResponseView } from "../../../src/ui/pinned-response-view";
import { STREAM_RUN_VIEW } from "../../../src/ui/stream/stream-views";
import { installDomHelpers } from "../../e2e/host/obsidian-shim";
import { answering } from "../../support/answering-transport";

jest.mock("obsidian", () => jest.requireActual<object>("../../e2e/host/obsidian-shim"));

beforeAll(() => installDomHelpers());

/** One fence of every kind; the stream kinds are ```http fences whose request line names their protocol. */
const NOTE = [
	"```http alias=plain",
	"GET http://127.0.0.1/users",
	"```",
	"```http-response alias=plain",
	"HTTP/1.1 200 OK",
	"```",
	"```http alias=feed",
	"SSE http://127.0.0.1/events",
	"```",
	"```http alias=socket",
	"ws://127.0.0.1/socket",
	"```",
	"```db",
	"SELECT 1",
	"```",
	"```textdiff",
	"left",
	"---",
	"right",
	"```",
	"",
].join("\n");
const note = parseNote(NOTE);
const host = blockHost(memoryVault({ "n.md": NOTE }).app, answering({}));
const byAlias = (alias: string) => note.find((b) => b.alias === alias) as NoteBlock;
const byFence = (lang: string) => note.find((b) => b.fence.lang === lang && b.alias === null) as NoteBlock;

/** The reading view and the editor panel a block's renderer builds for it. */
function rendered(block: NoteBlock) {
	const renderer = rendererOf(block);
	if (!renderer) throw new Error(`no renderer for ${block.kind}`);
	const reading = renderer.reading(createDiv(), block.fence.content, readingContext(NOTE, "n.md", block.fence.startLine), host);
	const panel = renderer.editor(block, "n.md", host);
	return { reading, panel, mounted: panel.mount(createDiv()) };
}

describe("each kind's views in Obsidian", () => {
	it("has a renderer for every block kind, so none is left a plain code block", () => {
		expect(BLOCK_KINDS.map((k) => k.language).filter((language) => !(language in BLOCK_RENDERERS))).toEqual([]);
		expect(note.map((b) => rendererOf(b) !== undefined)).toEqual(note.map(() => true));
	});

	it.each(["plain", "feed", "socket"])("shows the ```http fence %s with the http view and its response panel (stream runs draw inside it)", (alias) => {
		if (alias !== "plain") expect(byAlias(alias).kind).not.toBe("http"); // a stream kind's block
		const { reading, mounted, panel } = rendered(byAlias(alias));
		expect(reading).toBeInstanceOf(HttpBlockView);
		expect(mounted).toBeInstanceOf(ResponsePanel);
		expect(panel.identity.split("\u0000").slice(0, 2)).toEqual(["n.md", blockKey(byAlias(alias))]);
	});

	it("shows a db block with the db view and panel", () => {
		const { reading, mounted } = rendered(byFence("db"));
		expect(reading).toBeInstanceOf(DbBlockView);
		expect(mounted).toBeInstanceOf(DbPanel);
	});

	it("shows a textdiff block with the diff view, and under its fence the read-only comparison keyed by its text", () => {
		const block = byFence("textdiff");
		const { reading, mounted, panel } = rendered(block);
		expect(reading).toBeInstanceOf(TextdiffBlockView);
		expect(mounted).toBeInstanceOf(TextdiffEditorPanel);
		expect(panel).toMatchObject({ display: "split", identity: ["n.md", blockKey(block), block.fence.info, block.fence.content].join("\u0000") });
		const edited = parseNote(NOTE.replace("right", "righter")).find((b) => b.kind === "textdiff") as NoteBlock;
		expect(rendererOf(edited)?.editor(edited, "n.md", host).identity).not.toBe(panel.identity);
	});

	it("shows a pinned response with the read-only pin view", () => {
		const pin = note.find((b) => b.kind === "http-response") as NoteBlock;
		expect(rendered(pin).reading).toBeInstanceOf(PinnedResponseView);
	});

	it("answers the ```http fence's views by kind: the stream kinds lend their run view, websocket its mobile notice, http and the rest nothing", () => {
		const kinds = ["http", "sse", "websocket", "db", "nothing", "constructor"];
		expect(kinds.map((k) => FENCE_VIEWS.runViewOf(k))).toEqual([undefined, STREAM_RUN_VIEW, STREAM_RUN_VIEW, undefined, undefined, undefined]);
		expect(kinds.map((k) => FENCE_VIEWS.noticeOf(k) !== undefined)).toEqual([false, false, true, false, false, false]);
	});

	it("draws websocket's notice from the stream room: on the mobile app, the headers it cannot send", () => {
		const [block] = parseNote("```http alias=room\nWEBSOCKET ws://127.0.0.1/s\nX-Room: 7\n```");
		const drawn = (mobileApp: boolean) => {
			Platform.isMobileApp = mobileApp;
			const parent = createDiv();
			FENCE_VIEWS.noticeOf(block.kind)?.(parent, host, "n.md", block);
			return parent.querySelector(".rb-stream-no-headers")?.textContent ?? null;
		};
		try {
			expect(drawn(false)).toBeNull();
			expect(drawn(true)).toContain("X-Room");
		} finally {
			Platform.isMobileApp = false;
		}
	});
});
