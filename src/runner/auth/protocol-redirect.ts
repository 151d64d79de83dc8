/**
 * The browser's return from an authorization on mobile, where nothing can listen on a loopback
 * port: the provider redirects to `obsidian://runnable-blocks-auth?code=…&state=…`, the system
 * hands that link to Obsidian, and Obsidian to the protocol handler the plugin registered, which
 * calls `deliver`. It is the same redirect source as the loopback one (`LoopbackRedirect`), so
 * the authorization code grant checks the state and exchanges the code the same way.
 */
import { PROTOCOL_REDIRECT_URI } from "../../settings/auth-config";
import type { LoopbackRedirect, RedirectOutcome } from "./loopback-redirect";

interface Waiting {
	/** The state its sign-in sent, once it waits (`next`). */
	state?: string;
	receive(params: URLSearchParams): void;
}

/** The handler's side: sign-ins wait here for the link Obsidian passes on. */
export class ProtocolRedirects {
	private readonly waiting = new Set<Waiting>();

	/**
	 * A link arrived (Obsidian's protocol data: `action` and the query's parameters). It goes to
	 * the sign-in whose state it carries; with none, to every sign-in waiting, which then fails
	 * as a stale or forged redirect would on desktop. False when no sign-in waits (a link opened
	 * twice, or after its sign-in ended).
	 */
	deliver(data: Readonly<Record<string, string>>): boolean {
		if (this.waiting.size === 0) return false;
		const params = new URLSearchParams(Object.entries(data).filter(([key]) => key !== "action"));
		const all = [...this.waiting];
		const own = all.filter((w) => w.state !== undefined && w.state === params.get("state"));
		for (const w of own.length > 0 ? own : all) w.receive(params);
		return true;
	}

	/** A redirect source for one sign-in: its URI is always PROTOCOL_REDIRECT_URI. */
	listen(): LoopbackRedirect {
		let received: URLSearchParams | null = null;
		let closed = false;
		let arrived: ((params: URLSearchParams) => void) | null = null;
		const waiting: Waiting = {
			receive: (params) => {
				received ??= params;
				arrived?.(params);
			},
		};
		this.waiting.add(waiting);
		return {
			redirectUri: PROTOCOL_REDIRECT_URI,
			next: (signal, state) =>
				new Promise<RedirectOutcome>((resolve) => {
					waiting.state = state;
					if (received) return resolve({ ok: true, params: received });
					const cancelled = () => resolve({ ok: false, reason: "cancelled" });
					if (signal.aborted || closed) return cancelled();
					signal.addEventListener("abort", cancelled, { once: true });
					arrived = (params) => {
						signal.removeEventListener("abort", cancelled);
						resolve({ ok: true, params });
					};
				}),
			close: () => {
				closed = true;
				this.waiting.delete(waiting);
			},
		};
	}
}
