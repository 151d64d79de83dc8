/**
 * A server on 127.0.0.1 that counts how many requests it holds at once: proof that blocks ran
 * side by side, by the server's count rather than by a clock. `gather` holds every response until
 * that many requests are in flight together (a barrier: a serial client never gets past the
 * first); `latencyMs` answers each request that long after it arrived (a slow API).
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ConcurrencyServer {
	url: string;
	/** Requests received, in arrival order (their paths). */
	readonly arrived: string[];
	/** The most requests in flight at the same moment. */
	maxInFlight(): number;
	close(): Promise<void>;
}

export async function startConcurrencyServer(opts: { gather?: number; latencyMs?: number } = {}): Promise<ConcurrencyServer> {
	const arrived: string[] = [];
	const waiting: Array<() => void> = [];
	const sockets = new Set<Socket>();
	const timers = new Set<NodeJS.Timeout>();
	let inFlight = 0;
	let max = 0;
	const server = http.createServer((req, res) => {
		req.resume();
		req.on("end", () => {
			arrived.push(req.url ?? "");
			inFlight++;
			max = Math.max(max, inFlight);
			const answer = () => {
				inFlight--;
				res.writeHead(200, { "Content-Type": "application/json" });
				res.end(JSON.stringify({ path: req.url, arrival: arrived.indexOf(req.url ?? "") }));
			};
			const afterLatency = () => {
				if (!opts.latencyMs) return answer();
				const t = setTimeout(() => {
					timers.delete(t);
					answer();
				}, opts.latencyMs);
				timers.add(t);
			};
			if (!opts.gather) return afterLatency();
			waiting.push(afterLatency);
			if (waiting.length >= opts.gather) for (const go of waiting.splice(0)) go();
		});
	});
	server.on("connection", (s: Socket) => {
		sockets.add(s);
		s.on("close", () => sockets.delete(s));
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		arrived,
		maxInFlight: () => max,
		close: async () => {
			for (const t of timers) clearTimeout(t);
			for (const s of sockets) s.destroy();
			await new Promise((r) => server.close(r));
		},
	};
}
