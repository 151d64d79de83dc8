import type { HttpView } from "../../../../src/runner/http/http-run";
import type { PreparedRequest } from "../../../../src/runner/request";
import { wireText } from "../../../../src/ui/panel/raw-view";

const request: PreparedRequest = { method: "POST", url: "http://127.0.0.1:8080/a?k=1", headers: [["Content-Type", "text/plain"]], body: "hi", followRedirects: true, timeoutMs: 1000 };
const head = { status: 200, statusText: "OK", httpVersion: "1.1", headers: [["Content-Type", "text/plain"]] as Array<[string, string]>, url: request.url, redirects: 0 };

describe("wireText", () => {
	it("writes the request as sent and the response as received, with LF line ends", () => {
		const s: HttpView = { state: "done", request, rawRequestHead: "POST /a?k=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: text/plain\r\n\r\n", head, body: new TextEncoder().encode("ok") };
		expect(wireText(s)).toBe("POST /a?k=1 HTTP/1.1\nHost: 127.0.0.1:8080\nContent-Type: text/plain\n\nhi\n\nHTTP/1.1 200 OK\nContent-Type: text/plain\n\nok");
	});

	it("writes a head of its own for a request no transport wrote, secrets masked", () => {
		const secret: PreparedRequest = { ...request, masked: { url: "http://127.0.0.1:8080/a?k=•••", target: "/a?k=•••", headers: request.headers, body: "hi", withReferences: request } };
		expect(wireText({ state: "failed", request: secret })).toBe("POST http://127.0.0.1:8080/a?k=••• HTTP/1.1\nContent-Type: text/plain\n\nhi");
	});

	it("names a binary body by its size instead of writing it, and a status line without reason as it is", () => {
		const png: HttpView = { state: "done", head: { ...head, statusText: "", headers: [["Content-Type", "application/octet-stream"]] }, body: new Uint8Array(2048) };
		expect(wireText(png)).toBe("HTTP/1.1 200\nContent-Type: application/octet-stream\n\n[binary body, 2.0 KiB]");
	});

	it("is empty for a run with neither request nor response", () => {
		expect(wireText({ state: "idle" })).toBe("");
	});
});
