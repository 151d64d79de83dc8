/**
 * The person at the browser, for the auth tests: a plain HTTP client that follows the test
 * provider's redirects, keeps its cookies and submits its forms (oidc-provider's devInteractions
 * login and consent, the device flow's code and confirmation), as a browser would. It stops at
 * the first page without a form, or at a redirect that leaves the provider (the loopback
 * redirect of an authorization code sign-in), which it follows once and returns; a redirect to
 * an app's link (obsidian://…) it returns without following.
 */
import { request } from "node:http";

export interface BrowserOptions {
	/** Filled into the forms: `login` and `password` on the login page, `user_code` on the device page. */
	fields?: Record<string, string>;
	/** Refuse: follow the consent page's abort link (or the device confirmation's abort button) instead of continuing. */
	deny?: boolean;
}

export interface Page {
	url: string;
	status: number;
	body: string;
}

/** Opens `url` and signs in as the forms ask; the last page seen (the loopback redirect's answer, or the provider's last page). */
export async function signInWithBrowser(url: string, opts: BrowserOptions = {}): Promise<Page> {
	const cookies = new Map<string, string>();
	const origin = new URL(url).origin;
	let page = await follow(url, "GET", "", cookies);
	for (let step = 0; step < 12; step++) {
		if (new URL(page.url).origin !== origin) return page;
		const form = firstForm(page.body);
		if (!form) return page;
		const abort = /href="([^"]*\/abort)"/.exec(page.body)?.[1];
		if (opts.deny && abort) {
			page = await follow(new URL(decode(abort), page.url).toString(), "GET", "", cookies);
			continue;
		}
		const values = { ...form.inputs, ...pick(opts.fields ?? {}, form.names) };
		if (opts.deny && form.names.includes("confirm")) {
			delete values.confirm;
			values.abort = "yes";
		}
		page = await follow(new URL(decode(form.action), page.url).toString(), "POST", new URLSearchParams(values).toString(), cookies);
	}
	throw new Error(`the sign-in did not end: ${page.url}`);
}

/** Sends one request, then follows redirects (as GET), keeping cookies, until a page or a redirect off the first origin. */
async function follow(url: string, method: "GET" | "POST", body: string, cookies: Map<string, string>): Promise<Page> {
	const origin = new URL(url).origin;
	let res = await send(url, method, body, cookies);
	let at = url;
	while (res.status >= 300 && res.status < 400 && res.location) {
		at = new URL(res.location, at).toString();
		// A link for an app (obsidian://…): the system would hand it to the app; the caller does.
		if (!/^https?:$/.test(new URL(at).protocol)) return { url: at, status: res.status, body: "" };
		res = await send(at, "GET", "", cookies);
		if (new URL(at).origin !== origin) break;
	}
	return { url: at, status: res.status, body: res.body };
}

function send(url: string, method: string, body: string, cookies: Map<string, string>): Promise<{ status: number; body: string; location?: string }> {
	const headers: Record<string, string> = { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
	if (method === "POST") headers["content-type"] = "application/x-www-form-urlencoded";
	return new Promise((resolve, reject) => {
		const req = request(url, { method, headers }, (res) => {
			for (const c of res.headers["set-cookie"] ?? []) {
				const [pair] = c.split(";");
				const eq = pair.indexOf("=");
				cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
			}
			let text = "";
			res.on("data", (d: Buffer) => (text += d.toString()));
			res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, ...(res.headers.location ? { location: res.headers.location } : {}) }));
		});
		req.on("error", reject);
		req.end(body);
	});
}

/** The first form of a page: its action, its inputs' values, and every input name. */
function firstForm(html: string): { action: string; inputs: Record<string, string>; names: string[] } | null {
	const form = /<form\b[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
	if (!form) return null;
	const inputs: Record<string, string> = {};
	const names: string[] = [];
	for (const input of form[2].matchAll(/<input\b[^>]*>/gi)) {
		const name = /name="([^"]*)"/.exec(input[0])?.[1];
		if (!name) continue;
		names.push(name);
		const value = /value="([^"]*)"/.exec(input[0])?.[1];
		if (value !== undefined) inputs[name] = decode(value);
	}
	return { action: form[1], inputs, names };
}

const pick = (fields: Record<string, string>, names: string[]) => Object.fromEntries(Object.entries(fields).filter(([k]) => names.includes(k)));

const decode = (s: string) => s.replace(/&amp;/g, "&").replace(/&#x2F;/gi, "/").replace(/&#39;/g, "'").replace(/&quot;/g, '"');
