/**
 * A local OpenAI-compatible chat server for the chat tests (real HTTP on 127.0.0.1, a free
 * port). The model name picks the behaviour, so a test reads as the server state it checks:
 *
 * - `echo`            streams "Olá 𝄞 — you said: <last user message>" in SSE, written `split`
 *                     bytes at a time (default 3: pieces cut UTF-8 sequences and `data:` lines)
 * - `fence`           streams an answer holding an ```http fence for GET <server>/ok
 * - `slow`            one delta every 20 ms until the client hangs up (never ends by itself)
 * - `silent`          reads the request and never answers (no status line): the client's timeout
 * - `json`            ignores `stream` and answers one JSON completion
 * - `garbage`         SSE whose data is not JSON
 * - `cut`             SSE that ends without [DONE] or a finish reason
 * - `midstream-error` a first delta, then an error event (as vLLM/OpenRouter send them)
 * - `no-done-finish`  SSE with a finish reason but no [DONE] (some servers do that)
 * - `hangup`          a first delta, then the socket is destroyed mid-stream
 * - `stall`           a first delta, then silence with the connection open (the client's idle timeout)
 * - `bad-content`     SSE whose delta content is a number, not text
 * - `json-error`      200 with an error object in place of a JSON completion
 * - `limited-until`   429 with Retry-After as a date, RETRY_AFTER_DATE
 * - `big-context`     400 with OpenAI's context_length_exceeded
 * - `limited`         429 with Retry-After: 7
 * - `boom`            500 with a plain-text body
 * - anything else     404 as Ollama answers an unknown model
 *
 * Every answer allows any origin (CORS), so the Chromium host's page can call it with fetch;
 * `cors: false` allows none, as a server that refuses the app's origin.
 * `apiKey` makes every route answer 401 unless `Authorization: Bearer <apiKey>` is sent.
 * `/ok` answers JSON for the blocks an answer suggests.
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ChatRequestSeen {
	method: string;
	path: string;
	headers: Record<string, string>;
	/** The body as the server received it (UTF-8). */
	body: string;
	/** True once the client closed the connection before the response ended. */
	closedEarly: boolean;
}

export interface OpenAiServer {
	/** Base URL with /v1, as `[chat] base_url` takes it. */
	baseUrl: string;
	origin: string;
	requests: ChatRequestSeen[];
	/** Resolves when a request to `path` has seen its client hang up. */
	closed(): Promise<ChatRequestSeen>;
	close(): Promise<void>;
}

export const MODELS = ["echo", "fence", "slow", "silent", "json", "garbage", "cut", "midstream-error", "no-done-finish", "hangup", "stall", "bad-content", "json-error", "big-context", "limited", "limited-until", "boom"];

/** The Retry-After date `limited-until` sends (a client reads it against its own clock). */
export const RETRY_AFTER_DATE = "Wed, 21 Oct 2015 07:28:00 GMT";

export const ECHO_PREFIX = "Olá 𝄞 — you said: ";

/** The SSE bytes of an answer given as deltas: one `data:` event per delta, then [DONE]. */
export function sseOf(deltas: string[], { done = true, finish = true } = {}): Buffer {
	type Chunk = { id: string; object: string; choices: Array<{ index: number; delta: { role?: string; content?: string }; finish_reason: string | null }> };
	const events: Chunk[] = deltas.map((d, i) => ({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: i === 0 ? { role: "assistant", content: d } : { content: d }, finish_reason: null }] }));
	if (finish) events.push({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
	const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : "");
	return Buffer.from(text, "utf8");
}

export async function startOpenAiServer(opts: { apiKey?: string; split?: number; port?: number; cors?: boolean } = {}): Promise<OpenAiServer> {
	const requests: ChatRequestSeen[] = [];
	const sockets = new Set<Socket>();
	const timers = new Set<NodeJS.Timeout>();
	const closeWaiters: Array<(r: ChatRequestSeen) => void> = [];
	const later = (ms: number, fn: () => void) => {
		const t = setTimeout(() => {
			timers.delete(t);
			fn();
		}, ms);
		timers.add(t);
	};
	let origin = "";

	/** Writes bytes in pieces of `size`, each in its own socket write a tick apart, so the client reads them apart. */
	const trickle = (res: http.ServerResponse, bytes: Buffer, size: number, end: boolean) => {
		let at = 0;
		const next = () => {
			if (res.destroyed) return;
			if (at >= bytes.length) {
				if (end) res.end();
				return;
			}
			res.write(bytes.subarray(at, at + size));
			at += size;
			later(1, next);
		};
		next();
	};
	const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
		res.writeHead(status, { "Content-Type": "application/json", ...headers });
		res.end(JSON.stringify(body));
	};
	const sseHead = (res: http.ServerResponse) => {
		res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
		res.flushHeaders();
	};

	const route = (req: http.IncomingMessage, res: http.ServerResponse, seen: ChatRequestSeen) => {
		if (seen.path === "/ok") return json(res, 200, { ok: true, from: "openai-server" });
		if (opts.apiKey !== undefined && seen.headers.authorization !== `Bearer ${opts.apiKey}`) {
			return json(res, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
		}
		if (seen.path === "/v1/models" && req.method === "GET") return json(res, 200, { object: "list", data: MODELS.map((id) => ({ id, object: "model", owned_by: "test" })) });
		if (seen.path !== "/v1/chat/completions" || req.method !== "POST") return json(res, 404, { error: "404 page not found" });
		let body: { model?: string; stream?: boolean; messages?: Array<{ role: string; content: string }> };
		try {
			body = JSON.parse(seen.body) as typeof body;
		} catch {
			return json(res, 400, { error: { message: "invalid JSON body" } });
		}
		const last = [...(body.messages ?? [])].reverse().find((m) => m.role === "user")?.content ?? "";
		const answer = body.model === "fence" ? `Try this block:\n\n\`\`\`http alias=ok\nGET ${origin}/ok\n\`\`\`\n` : `${ECHO_PREFIX}${last}`;
		const deltas = answer.match(/[\s\S]{1,7}/gu) ?? [];
		switch (body.model) {
			case "echo":
			case "fence":
				if (body.stream === false) return json(res, 200, { id: "c1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }] });
				sseHead(res);
				return trickle(res, sseOf(deltas), opts.split ?? 3, true);
			case "json":
				return json(res, 200, { id: "c1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }] });
			case "slow": {
				sseHead(res);
				const tick = () => {
					if (res.destroyed) return;
					res.write(sseOf(["tick "], { done: false, finish: false }));
					later(20, tick);
				};
				return tick();
			}
			case "silent":
				return;
			case "garbage":
				sseHead(res);
				return trickle(res, Buffer.from("data: {not json\n\n"), 64, true);
			case "cut":
				sseHead(res);
				return trickle(res, sseOf(["partial ", "answer"], { done: false, finish: false }), 64, true);
			case "no-done-finish":
				sseHead(res);
				return trickle(res, sseOf(["finished ", "without done"], { done: false }), 64, true);
			case "midstream-error":
				sseHead(res);
				res.write(sseOf(["Hello"], { done: false, finish: false }));
				return trickle(res, Buffer.from(`data: ${JSON.stringify({ error: { message: "upstream overloaded", code: "server_error" } })}\n\n`), 64, true);
			case "hangup":
				sseHead(res);
				res.write(sseOf(["Hel"], { done: false, finish: false }));
				return later(20, () => res.socket?.destroy());
			case "stall":
				sseHead(res);
				return void res.write(sseOf(["Hel"], { done: false, finish: false }));
			case "bad-content":
				sseHead(res);
				return trickle(res, Buffer.from(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 42 }, finish_reason: null }] })}\n\n`), 64, true);
			case "json-error":
				return json(res, 200, { error: { message: "the model crashed", code: "internal" } });
			case "big-context":
				return json(res, 400, { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.", type: "invalid_request_error", code: "context_length_exceeded" } });
			case "limited":
				return json(res, 429, { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }, { "Retry-After": "7" });
			case "limited-until":
				return json(res, 429, { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }, { "Retry-After": RETRY_AFTER_DATE });
			case "boom":
				res.writeHead(500, { "Content-Type": "text/plain" });
				return res.end("internal failure");
			default:
				return json(res, 404, { error: { message: `model "${body.model}" not found, try pulling it first`, type: "api_error", param: null, code: null } });
		}
	};

	const server = http.createServer((req, res) => {
		if (opts.cors !== false) res.setHeader("Access-Control-Allow-Origin", "*");
		if (req.method === "OPTIONS" && opts.cors !== false) {
			res.writeHead(204, { "Access-Control-Allow-Headers": "authorization, content-type, accept", "Access-Control-Allow-Methods": "GET, POST" });
			res.end();
			return;
		}
		const chunks: Buffer[] = [];
		const headers: Record<string, string> = {};
		for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i].toLowerCase()] = req.rawHeaders[i + 1];
		const seen: ChatRequestSeen = { method: req.method ?? "", path: new URL(req.url ?? "/", "http://x").pathname, headers, body: "", closedEarly: false };
		res.on("close", () => {
			if (res.writableFinished) return;
			seen.closedEarly = true;
			for (const w of closeWaiters.splice(0)) w(seen);
		});
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => {
			seen.body = Buffer.concat(chunks).toString("utf8");
			requests.push(seen);
			route(req, res, seen);
		});
	});
	server.on("connection", (s: Socket) => {
		sockets.add(s);
		s.on("close", () => sockets.delete(s));
	});
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(opts.port ?? 0, "127.0.0.1", resolve);
	});
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		baseUrl: `${origin}/v1`,
		origin,
		requests,
		closed: () => {
			const done = requests.find((r) => r.closedEarly);
			return done ? Promise.resolve(done) : new Promise((resolve) => closeWaiters.push(resolve));
		},
		close: async () => {
			for (const t of timers) clearTimeout(t);
			for (const s of sockets) s.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
