import { parseNote } from "../../../../src/blocks";
import { unsendableHeaders } from "../../../../src/ui/stream/mobile-headers";

const block = (content: string) => parseNote(`\`\`\`http\n${content}\n\`\`\`\n`)[0];

describe("unsendableHeaders", () => {
	it("names a WebSocket block's headers on the mobile app", () => {
		expect(unsendableHeaders(block("WEBSOCKET ws://127.0.0.1:1/\nAuthorization: Bearer x\nX-Room: 7\n\nhi"), true)).toEqual(["Authorization", "X-Room"]);
	});

	it("names none where `ws` sends them, for a block without headers, or for SSE", () => {
		expect(unsendableHeaders(block("WEBSOCKET ws://127.0.0.1:1/\nAuthorization: Bearer x"), false)).toEqual([]);
		expect(unsendableHeaders(block("WEBSOCKET ws://127.0.0.1:1/\n\nhi"), true)).toEqual([]);
		expect(unsendableHeaders(block("SSE http://127.0.0.1:1/\nAuthorization: Bearer x"), true)).toEqual([]);
	});
});
