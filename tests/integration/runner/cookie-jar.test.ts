/** The cookie jar (issue 14) against httpbin on 127.0.0.1: set, sent, expiry, path, domain, Secure over http. */
import { httpFields } from "../../../src/runner/http/http-run";
import { parseNote } from "../../../src/blocks";
import { cacheKey } from "../../../src/runner/cache-key";
import { CookieJars } from "../../../src/runner/cookie-jar";
import { createNodeTransport } from "../../../src/runner/http/node-transport";
import type { BlockResult } from "../../../src/runner/result";
import { runBlocks } from "../../../src/runner/run-note";
import { startHttpbin, type Httpbin } from "../../support/servers";

jest.setTimeout(60_000);

let bin: Httpbin;
const transport = createNodeTransport();

beforeAll(async () => {
	bin = await startHttpbin();
});
afterAll(async () => {
	transport.close();
	await bin.close();
});

/** Runs every block of the note, in order, with the jar of `env`; the results by alias. */
async function run(jars: CookieJars, env: string, ...blocks: string[]): Promise<Record<string, BlockResult>> {
	const note = parseNote(blocks.map((b, i) => `\`\`\`http alias=b${i}\n${b}\n\`\`\``).join("\n\n"));
	const runs = await runBlocks(note, note, { filePath: "c.md", env: {}, results: new Map(), force: true, deps: { transport, cacheKey, cookies: jars.for(env) } });
	return Object.fromEntries(runs.map((r) => [r.block.alias ?? "", r.result]));
}

const json = (r: BlockResult) => JSON.parse(new TextDecoder().decode(httpFields(r).body)) as { cookies?: Record<string, string>; headers?: Record<string, string> };
const setting = (cookie: string) => `GET ${bin.url}/response-headers?Set-Cookie=${encodeURIComponent(cookie)}`;

it("/cookies/set → /cookies: the redirect's cookie is sent on the next hop, and on later requests", async () => {
	const jars = new CookieJars();
	const r = await run(jars, "dev", `GET ${bin.url}/cookies/set?flavour=oat&n=1`, `GET ${bin.url}/cookies`);
	expect(json(r.b0).cookies).toEqual({ flavour: "oat", n: "1" });
	expect(json(r.b1).cookies).toEqual({ flavour: "oat", n: "1" });
	expect(jars.list("dev").map((c) => c.name).sort()).toEqual(["flavour", "n"]);
});

it("keeps one jar per environment, and # @no-cookie-jar neither sends nor stores", async () => {
	const jars = new CookieJars();
	await run(jars, "dev", `GET ${bin.url}/cookies/set?a=1`);
	expect(json((await run(jars, "prod", `GET ${bin.url}/cookies`)).b0).cookies).toEqual({});
	const r = await run(jars, "dev", `# @no-cookie-jar\nGET ${bin.url}/cookies`, `# @no-cookie-jar\nGET ${bin.url}/cookies/set?b=2`, `GET ${bin.url}/cookies`);
	expect(json(r.b0).cookies).toEqual({});
	expect(json(r.b2).cookies).toEqual({ a: "1" });
});

it("a cookie the block writes goes out with the jar's", async () => {
	const jars = new CookieJars();
	const r = await run(jars, "dev", `GET ${bin.url}/cookies/set?a=1`, `GET ${bin.url}/cookies\nCookie: mine=2`);
	expect(json(r.b1).cookies).toEqual({ mine: "2", a: "1" });
});

it("an expired cookie is dropped (httpbin's delete sets a past expiry)", async () => {
	const jars = new CookieJars();
	const r = await run(jars, "dev", `GET ${bin.url}/cookies/set?gone=1&kept=2`, `GET ${bin.url}/cookies/delete?gone`, `GET ${bin.url}/cookies`);
	expect(json(r.b2).cookies).toEqual({ kept: "2" });
	expect(jars.list("dev").map((c) => c.name)).toEqual(["kept"]);
});

it("sends a cookie only below its path", async () => {
	const jars = new CookieJars();
	const r = await run(jars, "dev", setting("scoped=1; Path=/anything/inside"), `GET ${bin.url}/anything/inside/x`, `GET ${bin.url}/anything/other`);
	expect(json(r.b1).headers?.Cookie).toBe("scoped=1");
	expect(json(r.b2).headers?.Cookie).toBeUndefined();
	expect(jars.list("dev")).toEqual([{ name: "scoped", value: "1", domain: "127.0.0.1", path: "/anything/inside", expires: null, secure: false, httpOnly: false, sameSite: null }]);
});

it("refuses a cookie for another domain, and a Secure cookie set over http", async () => {
	const jars = new CookieJars();
	const r = await run(jars, "dev", setting("other=1; Domain=example.com"), setting("sec=1; Secure"), setting("ok=1; HttpOnly; Max-Age=3600"), `GET ${bin.url}/cookies`);
	expect(json(r.b3).cookies).toEqual({ ok: "1" });
	const [ok] = jars.list("dev");
	expect(ok).toMatchObject({ name: "ok", httpOnly: true, secure: false });
	expect(ok.expires).not.toBeNull();
	jars.clear("dev");
	expect(jars.list("dev")).toEqual([]);
});
