import { listenLoopback, type LoopbackRedirect } from "../../../../src/runner/auth/loopback-redirect";
import { httpGet as get } from "../../../support/oauth-endpoints";

const PAGES = { received: "Signed in.", refused: "Refused." };


let open: LoopbackRedirect[] = [];
const listen = async (uri: string) => {
	const r = await listenLoopback(uri, PAGES);
	open.push(r);
	return r;
};
afterEach(() => {
	for (const r of open) r.close();
	open = [];
});

describe("listenLoopback", () => {
	it("listens on a free port when the URI names none, and says which", async () => {
		const r = await listen("http://127.0.0.1/callback");
		expect(r.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		expect(new URL(r.redirectUri).port).not.toBe("0");
	});

	it("keeps the port, host and path written", async () => {
		const free = await listen("http://127.0.0.1/x");
		const port = new URL(free.redirectUri).port;
		free.close();
		const r = await listen(`http://localhost:${port}/oauth/back`);
		expect(r.redirectUri).toBe(`http://localhost:${port}/oauth/back`);
		const next = r.next(new AbortController().signal);
		await get(`http://127.0.0.1:${port}/oauth/back?code=c`);
		expect(await next).toEqual({ ok: true, params: new URLSearchParams("code=c") });
	});

	it("hands over the first request to its path and answers it with plain static text", async () => {
		const r = await listen("http://127.0.0.1/callback");
		const next = r.next(new AbortController().signal);
		expect(await get(`${r.redirectUri}?code=abc&state=s1`)).toEqual({ status: 200, type: "text/plain; charset=utf-8", body: PAGES.received });
		expect(await next).toEqual({ ok: true, params: new URLSearchParams("code=abc&state=s1") });
	});

	it("answers an error with the refused page, never echoing what the request carried", async () => {
		const r = await listen("http://127.0.0.1/callback");
		const page = await get(`${r.redirectUri}?error=access_denied&error_description=${encodeURIComponent("<script>x</script>")}`);
		expect(page.body).toBe(PAGES.refused);
		expect((await r.next(new AbortController().signal)).ok).toBe(true);
	});

	it("ignores other paths and any request after the first", async () => {
		const r = await listen("http://127.0.0.1/callback");
		const origin = new URL(r.redirectUri).origin;
		expect((await get(`${origin}/favicon.ico`)).status).toBe(404);
		await get(`${r.redirectUri}?code=first`);
		expect((await get(`${r.redirectUri}?code=second`)).status).toBe(404);
		const got = await r.next(new AbortController().signal);
		expect(got.ok && got.params.get("code")).toBe("first");
	});

	it("ends the wait when the signal aborts", async () => {
		const r = await listen("http://127.0.0.1/callback");
		const stop = new AbortController();
		const next = r.next(stop.signal);
		stop.abort();
		expect(await next).toEqual({ ok: false, reason: "cancelled" });
	});

	it("stops listening on close", async () => {
		const r = await listen("http://127.0.0.1/callback");
		r.close();
		await expect(get(r.redirectUri)).rejects.toThrow(/ECONNREFUSED/);
	});

	it("rejects when the port is taken", async () => {
		const r = await listen("http://127.0.0.1/callback");
		await expect(listenLoopback(r.redirectUri, PAGES)).rejects.toThrow(/EADDRINUSE/);
	});
});
