/**
 * The cookie jar (docs/architecture.md, issue 14): one per environment, as browsers and the peers keep
 * one. Set-Cookie from a response is stored and sent on later requests of the run and the session
 * unless the block says `# @no-cookie-jar`. Domain, path and expiry rules are tough-cookie's
 * (RFC 6265); a Secure cookie set over plain http is refused (RFC 6265bis §5.7, step 9).
 * Kept in memory: never in history.
 */
import type * as Tough from "tough-cookie";
import type { CookieJar } from "tough-cookie";

let tough: typeof Tough | null = null;

/**
 * tough-cookie, loaded on the first cookie: with its public-suffix list it cost every CLI start
 * ~45 ms of loading, and a run whose responses set no cookie never needs it.
 */
function toughCookie(): typeof Tough {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above); bundled into main.js, required from node_modules by the CLI
	tough ??= require("tough-cookie") as typeof Tough;
	return tough;
}

/** What a transport asks of the jar for one request (each hop of a redirect asks again). */
export interface RunCookies {
	/** The `Cookie` value the jar holds for the URL, or null. */
	header(url: string): string | null;
	/** Stores a response's Set-Cookie values for the URL that answered. */
	store(url: string, setCookies: readonly string[]): void;
}

/** A cookie as the Cookies tab lists the jar. */
export interface JarCookie {
	name: string;
	value: string;
	domain: string;
	path: string;
	/** ISO date, or null for a session cookie. */
	expires: string | null;
	secure: boolean;
	httpOnly: boolean;
	sameSite: string | null;
}

/** The Set-Cookie values of a response head. */
export function setCookiesOf(headers: ReadonlyArray<readonly [string, string]>): string[] {
	const out: string[] = [];
	// Lower-cased only at the name's length: this runs for every response.
	for (const [n, v] of headers) if (n.length === 10 && n.toLowerCase() === "set-cookie") out.push(v);
	return out;
}

/** The request's headers with the jar's cookies for the URL added (after a `Cookie` the block wrote). */
export function withJarCookies(headers: ReadonlyArray<[string, string]>, jarValue: string | null): Array<[string, string]> {
	if (!jarValue) return [...headers];
	const at = headers.findIndex(([n]) => n.toLowerCase() === "cookie");
	if (at < 0) return [...headers, ["Cookie", jarValue]];
	return headers.map(([n, v], i): [string, string] => (i === at ? [n, `${v}; ${jarValue}`] : [n, v]));
}

/** The jars of a session, one per environment name. */
export class CookieJars {
	private readonly jars = new Map<string, CookieJar>();
	/** Called after a response stored cookies or a jar was cleared (persistence saves then). */
	onChange: (() => void) | null = null;

	/** Every jar as JSON text (tough-cookie's serialization, per environment). */
	serialize(): string {
		const out: Record<string, unknown> = {};
		for (const [env, jar] of this.jars) out[env] = jar.serializeSync();
		return JSON.stringify(out);
	}

	/** Replaces the jars with those of `serialize()`'s text; text that cannot be read leaves them empty and says why. */
	restore(text: string): string | null {
		this.jars.clear();
		try {
			const data = JSON.parse(text) as Record<string, Parameters<typeof Tough.CookieJar.deserializeSync>[0]>;
			for (const [env, jar] of Object.entries(data)) this.jars.set(env, toughCookie().CookieJar.deserializeSync(jar));
			return null;
		} catch (e) {
			this.jars.clear();
			return e instanceof Error ? e.message : String(e);
		}
	}

	private jar(env: string): CookieJar {
		let jar = this.jars.get(env);
		if (!jar) {
			jar = new (toughCookie().CookieJar)();
			this.jars.set(env, jar);
		}
		return jar;
	}

	/**
	 * The jar of an environment as a run uses it. The jar is made by the first Set-Cookie: until
	 * then there is nothing to send, and asking tough-cookie for nothing cost every request of a
	 * cookie-less run ~0.1 ms (its domain canonicalisation and public-suffix lookup).
	 */
	for(env: string): RunCookies {
		return {
			header: (url) => this.jars.get(env)?.getCookieStringSync(url) || null,
			store: (url, setCookies) => {
				if (setCookies.length === 0) return;
				const jar = this.jar(env);
				const { Cookie } = toughCookie();
				const insecure = url.startsWith("http:");
				for (const text of setCookies) {
					const cookie = Cookie.parse(text);
					if (!cookie || (cookie.secure && insecure)) continue;
					// A cookie for another domain, or otherwise refused by RFC 6265, is dropped: a response cannot break a run.
					jar.setCookieSync(cookie, url, { ignoreError: true });
				}
				this.onChange?.();
			},
		};
	}

	/** Every unexpired cookie of an environment's jar. */
	list(env: string): JarCookie[] {
		const jar = this.jars.get(env);
		if (!jar) return [];
		const now = Date.now();
		const { Cookie } = toughCookie();
		const cookies = (jar.serializeSync()?.cookies ?? []).map((c) => Cookie.fromJSON(c)).filter((c): c is Tough.Cookie => c !== null && c !== undefined && c.TTL(now) > 0);
		return cookies.map((c) => {
			const expiry = c.expiryTime(new Date(now));
			return {
				name: c.key,
				value: c.value,
				domain: c.domain ?? "",
				path: c.path ?? "/",
				expires: expiry !== undefined && Number.isFinite(expiry) ? new Date(expiry).toISOString() : null,
				secure: c.secure,
				httpOnly: c.httpOnly,
				sameSite: c.sameSite && c.sameSite !== "unspecified" ? c.sameSite : null,
			};
		});
	}

	/** Forgets the cookies of one environment, or of all. */
	clear(env?: string): void {
		if (env === undefined) this.jars.clear();
		else this.jars.delete(env);
		this.onChange?.();
	}
}
