import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { AuthNetworkError, transportFetch } from "../../../../src/runner/auth/transport-fetch";
import { refusedPort, startSilentServer } from "../../../support/servers";

interface Seen {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

/** A provider on 127.0.0.1: /token answers JSON, /moved redirects, /empty has no body. */
let server: http.Server;
let base: string;
const seen: Seen[] = [];
const transport = createNodeTransport();

beforeAll(async () => {
	server = http.createServer((req, res) => {
		let body = "";
		req.setEncoding("utf8");
		req.on("data", (c: string) => (body += c));
		req.on("end", () => {
			seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
			if (req.url === "/moved") res.writeHead(302, { Location: "/token" }).end();
			else if (req.url === "/empty") res.writeHead(204).end();
			else res.writeHead(400, "Bad Request", [["Content-Type", "application/json"], ["X-Trace", "1"], ["X-Trace", "2"]]).end('{"error":"invalid_grant"}');
		});
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	transport.close();
	await new Promise((r) => server.close(r));
});
beforeEach(() => (seen.length = 0));

describe("transportFetch", () => {
	it("sends the method, headers and form body oauth4webapi gives, and answers its status, headers and body", async () => {
		const fetch = transportFetch(transport);
		const res = await fetch(`${base}/token`, { method: "post", headers: { Authorization: "Basic abc", "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", scope: "a b" }) });
		expect(seen[0]).toMatchObject({ method: "POST", url: "/token", body: "grant_type=client_credentials&scope=a+b", headers: { authorization: "Basic abc" } });
		expect(res.status).toBe(400);
		expect(res.statusText).toBe("Bad Request");
		expect(res.headers.get("x-trace")).toBe("1, 2");
		expect(await res.json()).toEqual({ error: "invalid_grant" });
	});

	it("sends a GET without a body when none is given", async () => {
		await transportFetch(transport)(`${base}/token`, {});
		expect(seen[0]).toMatchObject({ method: "GET", body: "" });
	});

	it("never follows a redirect: the provider's 302 is the answer", async () => {
		const res = await transportFetch(transport)(`${base}/moved`, { method: "GET" });
		expect(res.status).toBe(302);
		expect(seen.map((s) => s.url)).toEqual(["/moved"]);
	});

	it("answers a 204 with an empty body", async () => {
		const res = await transportFetch(transport)(`${base}/empty`, { method: "POST", body: "x" });
		expect(res.status).toBe(204);
		expect(await res.text()).toBe("");
	});

	it("refuses a body it cannot send, before sending anything", async () => {
		await expect(transportFetch(transport)(`${base}/token`, { method: "POST", body: new Blob(["x"]) })).rejects.toThrow(new AuthNetworkError("unsupported request body"));
		expect(seen).toEqual([]);
	});

	it("throws a network error with the transport's words when the provider cannot be reached", async () => {
		const port = await refusedPort();
		const error = await transportFetch(transport)(`http://127.0.0.1:${port}/token`, { method: "POST" }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(AuthNetworkError);
		expect((error as Error).message).toMatch(/^Failed to connect/);
	});

	it("throws a network error when the run is cancelled while it waits", async () => {
		const silent = await startSilentServer();
		try {
			const abort = new AbortController();
			const pending = transportFetch(transport, abort.signal)(`${silent.url}/token`, { method: "POST" });
			abort.abort();
			await expect(pending).rejects.toThrow(new AuthNetworkError("cancelled"));
		} finally {
			await silent.close();
		}
	});
});
