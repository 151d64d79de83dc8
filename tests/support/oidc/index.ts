/**
 * Starts the test OpenID provider (provider.mjs) in a child process and waits for its URLs.
 * oidc-provider is ESM-only and warns on Node 20: it runs beside jest, not inside it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { join } from "node:path";

export interface TestProvider {
	issuer: string;
	/** The protected resource: `/api` answers 200 to a live token, 401 otherwise; `/calls` counts requests. */
	resource: string;
	client: { id: string; secret: string };
	user: { name: string; password: string };
	/** Revokes a token at the provider's revocation endpoint (RFC 7009), as the client. */
	revoke(token: string, hint: "access_token" | "refresh_token"): Promise<void>;
	/** How many requests the resource has seen. */
	calls(): Promise<number>;
	/** Every request to the authorization, device authorization and token endpoints so far, in order. */
	asked(): Promise<AskedOfProvider[]>;
	stop(): Promise<void>;
}

export interface AskedOfProvider {
	path: "/auth" | "/device/auth" | "/token";
	/** The query (authorization) or form fields; a repeated field is an array. */
	fields: Record<string, string | string[]>;
	/** `client_id:client_secret` of an HTTP Basic client authentication, each form-urldecoded (RFC 6749 §2.3.1), else null. */
	basic: string | null;
	status: number;
}

export async function startProvider(opts: { tokenTtlSeconds?: number } = {}): Promise<TestProvider> {
	const child: ChildProcess = spawn(process.execPath, [join(__dirname, "provider.mjs")], { env: { ...process.env, TOKEN_TTL: String(opts.tokenTtlSeconds ?? 600) }, stdio: ["ignore", "pipe", "pipe"] });
	let errors = "";
	child.stderr?.on("data", (d: Buffer) => (errors += d.toString()));
	const line = await new Promise<string>((resolve, reject) => {
		let out = "";
		child.stdout?.on("data", (d: Buffer) => {
			out += d.toString();
			if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
		});
		child.on("exit", (code) => reject(new Error(`the test provider exited (${code}): ${errors}`)));
	});
	const info = JSON.parse(line) as Pick<TestProvider, "issuer" | "resource" | "client" | "user">;
	const basic = `Basic ${Buffer.from(`${info.client.id}:${info.client.secret}`).toString("base64")}`;
	return {
		...info,
		async revoke(token, hint) {
			const res = await send(`${info.issuer}/token/revocation`, "POST", { authorization: basic, "content-type": "application/x-www-form-urlencoded" }, new URLSearchParams({ token, token_type_hint: hint }).toString());
			if (res.status !== 200) throw new Error(`revocation answered ${res.status}: ${res.body}`);
		},
		async calls() {
			return (JSON.parse((await send(`${info.resource}/calls`, "GET", {}, "")).body) as { calls: number }).calls;
		},
		async asked() {
			return JSON.parse((await send(`${info.resource}/asked`, "GET", {}, "")).body) as AskedOfProvider[];
		},
		stop: () =>
			new Promise<void>((resolve) => {
				if (child.exitCode !== null) return resolve();
				child.once("exit", () => resolve());
				child.kill("SIGTERM");
			}),
	};
}

/** One plain HTTP exchange with the provider or the resource (the test's own requests, not the client's under test). */
function send(url: string, method: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const req = request(url, { method, headers }, (res) => {
			let text = "";
			res.on("data", (d: Buffer) => (text += d.toString()));
			res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
		});
		req.on("error", reject);
		req.end(body);
	});
}
