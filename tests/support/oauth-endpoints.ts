/**
 * A scripted OAuth server on 127.0.0.1 for unit specs of one grant: each request is recorded
 * (path, form fields, headers) and answered by the spec's `answer`, so a spec can play what a
 * real provider rarely does on cue (`slow_down`, an expired code).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface Asked {
	path: string;
	form: Record<string, string>;
	/** Every form field in order, repeated names included (`resource`, RFC 8707). */
	fields: string[][];
	headers: http.IncomingHttpHeaders;
}

export type Answer = { status: number; json: unknown };

export interface OAuthEndpoints {
	/** `http://127.0.0.1:<port>` */
	base: string;
	asked: Asked[];
	close(): Promise<void>;
}

export async function startOAuthEndpoints(answer: (asked: Asked, n: number) => Answer): Promise<OAuthEndpoints> {
	const asked: Asked[] = [];
	const server = http.createServer((req, res) => {
		let body = "";
		req.setEncoding("utf8");
		req.on("data", (c: string) => (body += c));
		req.on("end", () => {
			const a: Asked = { path: new URL(req.url ?? "/", "http://x").pathname, form: Object.fromEntries(new URLSearchParams(body)), fields: [...new URLSearchParams(body)], headers: req.headers };
			asked.push(a);
			const { status, json } = answer(a, asked.length - 1);
			res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(json));
		});
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return {
		base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		asked,
		close: () => new Promise((r) => server.close(() => r())),
	};
}

/** A token endpoint's success (RFC 6749 §5.1). */
export const tokenAnswer = (accessToken: string, extra: Record<string, unknown> = {}): Answer => ({ status: 200, json: { access_token: accessToken, token_type: "Bearer", expires_in: 300, ...extra } });

/** An OAuth error answer (RFC 6749 §5.2). */
export const oauthError = (error: string, status = 400): Answer => ({ status, json: { error } });

/** One GET on 127.0.0.1 with Node's http (the person's browser returning, in a spec). */
export function httpGet(url: string): Promise<{ status: number; type: string | undefined; body: string }> {
	return new Promise((resolve, reject) => {
		http.get(url, (res) => {
			let body = "";
			res.setEncoding("utf8");
			res.on("data", (c: string) => (body += c));
			res.on("end", () => resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], body }));
		}).on("error", reject);
	});
}
