import { ProtocolRedirects } from "../../../../src/runner/auth/protocol-redirect";
import { PROTOCOL_REDIRECT_URI } from "../../../../src/settings/auth-config";

/** Obsidian's protocol data for `obsidian://runnable-blocks-auth?<query>`: the action and each parameter. */
const link = (query: Record<string, string>) => ({ action: "runnable-blocks-auth", ...query });

describe("ProtocolRedirects: the browser's return on mobile, through Obsidian's protocol handler", () => {
	it("gives the sign-in the link's parameters (not the action), at the obsidian:// redirect URI", async () => {
		const redirects = new ProtocolRedirects();
		const redirect = redirects.listen();
		expect(redirect.redirectUri).toBe("obsidian://runnable-blocks-auth");
		expect(redirect.redirectUri).toBe(PROTOCOL_REDIRECT_URI);
		const next = redirect.next(new AbortController().signal, "s1");
		expect(redirects.deliver(link({ code: "c0de", state: "s1" }))).toBe(true);
		const outcome = await next;
		expect(outcome.ok && Object.fromEntries(outcome.params)).toEqual({ code: "c0de", state: "s1" });
	});

	it("keeps a link that arrives before the sign-in waits for it", async () => {
		const redirects = new ProtocolRedirects();
		const redirect = redirects.listen();
		redirects.deliver(link({ code: "early", state: "s1" }));
		const outcome = await redirect.next(new AbortController().signal, "s1");
		expect(outcome.ok && outcome.params.get("code")).toBe("early");
	});

	it("gives a link to the sign-in whose state it carries when several wait", async () => {
		const redirects = new ProtocolRedirects();
		const [a, b] = [redirects.listen(), redirects.listen()];
		const stop = new AbortController();
		const nextA = a.next(stop.signal, "state-a");
		const nextB = b.next(stop.signal, "state-b");
		redirects.deliver(link({ code: "for-b", state: "state-b" }));
		const outcomeB = await nextB;
		expect(outcomeB.ok && outcomeB.params.get("code")).toBe("for-b");
		stop.abort();
		expect(await nextA).toEqual({ ok: false, reason: "cancelled" });
	});

	it("hands a link with a state nobody sent to the waiting sign-in, which then refuses it as forged", async () => {
		const redirects = new ProtocolRedirects();
		const next = redirects.listen().next(new AbortController().signal, "mine");
		redirects.deliver(link({ code: "x", state: "forged" }));
		const outcome = await next;
		expect(outcome.ok && outcome.params.get("state")).toBe("forged");
	});

	it("ends the wait as cancelled on abort, and no longer takes links once closed", async () => {
		const redirects = new ProtocolRedirects();
		const redirect = redirects.listen();
		const stop = new AbortController();
		const next = redirect.next(stop.signal, "s1");
		stop.abort();
		expect(await next).toEqual({ ok: false, reason: "cancelled" });
		redirect.close();
		expect(redirects.deliver(link({ code: "late", state: "s1" }))).toBe(false);
	});

	it("says no sign-in waits for a link opened when none started", () => {
		expect(new ProtocolRedirects().deliver(link({ code: "c", state: "s" }))).toBe(false);
	});
});
