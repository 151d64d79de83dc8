/**
 * Obsidian's `requestUrl`, the one thing a spec of the requestUrl transport stands in for: the
 * request goes out through node:http to a real server on 127.0.0.1, the whole response comes
 * back at once (no streaming, no abort), headers as an object (repeated names joined with ", "),
 * and a failure to connect rejects, as Obsidian's does.
 */
import * as http from "node:http";
import type { RequestUrlParam, RequestUrlResponse } from "obsidian";

export interface RequestUrlCalls {
	requestUrl: (request: RequestUrlParam) => Promise<RequestUrlResponse>;
	/** What the transport handed to requestUrl, in order. */
	calls: RequestUrlParam[];
}

export function nodeRequestUrl(): RequestUrlCalls {
	const calls: RequestUrlParam[] = [];
	const requestUrl = (request: RequestUrlParam) =>
		new Promise<RequestUrlResponse>((resolve, reject) => {
			calls.push(request);
			const body = request.body === undefined ? undefined : typeof request.body === "string" ? Buffer.from(request.body) : Buffer.from(request.body);
			const req = http.request(request.url, { method: request.method ?? "GET", headers: request.headers }, (res) => {
				const parts: Buffer[] = [];
				res.on("data", (c: Buffer) => parts.push(c));
				res.on("error", reject);
				res.on("end", () => {
					const bytes = Buffer.concat(parts);
					const headers: Record<string, string> = {};
					for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
						const name = res.rawHeaders[i].toLowerCase();
						headers[name] = name in headers ? `${headers[name]}, ${res.rawHeaders[i + 1]}` : res.rawHeaders[i + 1];
					}
					const arrayBuffer = new Uint8Array(bytes).buffer;
					resolve({ status: res.statusCode ?? 0, headers, arrayBuffer, text: bytes.toString("utf8"), json: undefined as unknown });
				});
			});
			req.on("error", reject);
			req.end(body);
		});
	return { requestUrl, calls };
}
