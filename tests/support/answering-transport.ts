import type { PreparedRequest } from "../../src/runner/request";
import { failed, type Transport, type TransportOutcome } from "../../src/runner/transport";

/** A transport that answers from memory: a JSON body per URL (without query), a refused connection for the rest; it logs what was sent. */
export function answering(bodies: Record<string, string>): Transport & { sent: string[] } {
	const sent: string[] = [];
	return {
		name: "node",
		streams: true,
		sent,
		send(request: PreparedRequest): Promise<TransportOutcome> {
			sent.push(`${request.method} ${request.url}`);
			const body = bodies[request.url.split("?")[0]];
			if (body === undefined) return Promise.resolve(failed("connect_failed", "ECONNREFUSED", { total: 1 }));
			const head = { status: 200, statusText: "OK", httpVersion: "1.1", headers: [["Content-Type", "application/json"]] as Array<[string, string]>, url: request.url, redirects: 0 };
			return Promise.resolve({ kind: "done", head, body: new TextEncoder().encode(body), timing: { total: 1 }, requestBytes: 0, rawRequestHead: "" });
		},
	};
}
