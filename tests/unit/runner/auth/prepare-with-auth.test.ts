import { parseNote, type Entropy, type NoteBlock } from "../../../../src/blocks";
import { readResult } from "../../../../src/runner/block-runners";
import type { PrepareContext } from "../../../../src/runner/prepare";
import { prepareWithAuth } from "../../../../src/runner/auth/prepare-with-auth";
import type { RunAuth } from "../../../../src/runner/auth/run-auth";
import type { RunError } from "../../../../src/runner/result";
import { shownRequest } from "../../../../src/runner/request";
import type { ResolvedAuth } from "../../../../src/settings/auth-config";

const entropy: Entropy = { now: () => new Date(0), random: () => 0, uuid: () => "u-u-i-d" };

function block(...lines: string[]): NoteBlock {
	const [b] = parseNote(["```http", ...lines, "```"].join("\n"));
	if (!b) throw new Error("no block");
	return b;
}

/** A run's auth that holds `kept` tokens and records what it was asked to acquire; `refuse` fails acquiring. */
function standIn(kept: Record<string, string>, refuse?: RunError) {
	const acquired: Array<{ names: readonly string[]; renew?: boolean }> = [];
	const configured: Array<{ auth: ResolvedAuth; renew?: boolean }> = [];
	const auth: RunAuth = {
		environment: "dev",
		// "aws" stands for an aws-sigv4 configuration: no token, not listed.
		use: (name) => (name === "aws" ? undefined : { environment: "dev", name, grant: "client_credentials" }),
		lookup: (ref) => (ref.name in kept ? { ok: true, value: kept[ref.name] ?? "" } : { ok: false, message: `no token for ${ref.name}` }),
		acquire: (names, opts) => {
			acquired.push({ names, ...(opts?.renew !== undefined ? { renew: opts.renew } : {}) });
			return Promise.resolve(refuse ?? null);
		},
		tokenFor: (resolved, opts) => {
			configured.push({ auth: resolved, ...(opts?.renew !== undefined ? { renew: opts.renew } : {}) });
			return Promise.resolve(refuse ? { ok: false, error: refuse } : { ok: true, token: `tok-${configured.length}` });
		},
		renewable: () => true,
	};
	return { auth, acquired, configured };
}

const ctx = (auth?: RunAuth, env: Record<string, string> = {}): PrepareContext => ({ env, aliases: new Set(), result: () => undefined, read: readResult, entropy, defaultTimeoutMs: 1000, ...(auth ? { auth } : {}) });

describe("prepareWithAuth: the configurations a request names", () => {
	const namesOf = async (b: NoteBlock, c: PrepareContext) => (await prepareWithAuth(b, c)).authNames;

	it("finds them once each, in its URL, headers and body, tokens kept or not", async () => {
		const b = block('POST http://h/{{$auth.token("a")}}', 'Authorization: Bearer {{$auth.token("b")}}', "", '{"id": "{{$auth.idToken(\'a\')}}"}');
		expect((await namesOf(b, ctx(standIn({}).auth))).sort()).toEqual(["a", "b"]);
		expect((await namesOf(b, ctx(standIn({ a: "A" }).auth))).sort()).toEqual(["a", "b"]);
	});

	it("finds a configuration named through a variable's value", async () => {
		const b = block("GET http://h/", "Authorization: {{bearer}}");
		expect(await namesOf(b, ctx(standIn({}).auth, { bearer: 'Bearer {{$auth.token("kc")}}' }))).toEqual(["kc"]);
	});

	it("finds none without auth, or in a request that names none", async () => {
		expect(await namesOf(block('GET http://h/{{$auth.token("a")}}'), ctx())).toEqual([]);
		expect(await namesOf(block("GET http://h/"), ctx(standIn({}).auth))).toEqual([]);
	});

	it("prepares a request that names none once, and one that names some again after its tokens came", async () => {
		let preparations = 0;
		const counted: PrepareContext = { ...ctx(standIn({ kc: "T0K" }).auth), entropy: { ...entropy, uuid: () => `u${++preparations}` } };
		await expect(prepareWithAuth(block("GET http://h/{{$uuid}}"), counted)).resolves.toMatchObject({ request: { url: "http://h/u1" } });
		expect(preparations).toBe(1);
		await expect(prepareWithAuth(block('GET http://h/{{$uuid}}/{{$auth.token("kc")}}'), counted)).resolves.toMatchObject({ request: { url: "http://h/u3/T0K" } });
		expect(preparations).toBe(3);
	});
});

describe("prepareWithAuth", () => {
	it("acquires the named tokens first, then resolves the request with them", async () => {
		const { auth, acquired } = standIn({ kc: "T0K" });
		const p = await prepareWithAuth(block("GET http://h/", 'Authorization: Bearer {{$auth.token("kc")}}'), ctx(auth), { renew: true });
		expect(acquired).toEqual([{ names: ["kc"], renew: true }]);
		expect(p).toMatchObject({ ok: true, authNames: ["kc"], request: { headers: [["Authorization", "Bearer T0K"]] } });
	});

	it("stops with the acquire's error, nothing resolved", async () => {
		const refused: RunError = { code: "auth_failed", message: 'Auth "kc", token request: no' };
		const p = await prepareWithAuth(block('GET http://h/{{$auth.token("kc")}}'), ctx(standIn({}, refused).auth));
		expect(p).toEqual({ ok: false, error: refused, notRun: [], authNames: ["kc"], authUsed: [{ environment: "dev", name: "kc", grant: "client_credentials" }] });
	});

	it("acquires nothing for a request that names no configuration", async () => {
		const { auth, acquired } = standIn({});
		const p = await prepareWithAuth(block("GET http://h/x"), ctx(auth));
		expect(acquired).toEqual([]);
		expect(p).toMatchObject({ ok: true, authNames: [], request: { url: "http://h/x" } });
	});
});

describe("prepareWithAuth: httpyac's Authorization: openid <grant> <prefix>", () => {
	const env = { local_tokenEndpoint: "{{idp}}/token", idp: "http://127.0.0.1:9", local_clientId: "app", local_clientSecret: "s3" };

	it("sends Bearer <token> for the configuration the variables describe, and shows it masked", async () => {
		const s = standIn({});
		const got = await prepareWithAuth(block("GET http://h/x", "Authorization: openid client_credentials local"), ctx(s.auth, env));
		if (!got.ok) throw new Error(got.error.message);
		expect(got.request.headers).toEqual([["Authorization", "Bearer tok-1"]]);
		expect(shownRequest(got.request).headers).toEqual([["Authorization", "Bearer •••"]]);
		// An export writes the form as written: it names the variables, never the token.
		expect(got.request.masked?.withReferences.headers).toEqual([["Authorization", "openid client_credentials local"]]);
		expect(s.configured[0].auth).toMatchObject({ name: "openid client_credentials local", config: { tokenUrl: "http://127.0.0.1:9/token", clientId: "app" }, secrets: { client_secret: "s3" } });
		expect(got.openIdAuth).toEqual({ environment: "dev", name: "openid client_credentials local", grant: "client_credentials" });
	});

	it("lists every OAuth configuration whose token the request carried, for the Auth tab", async () => {
		const s = standIn({ kc: "T0K", aws: "AWS4" });
		const got = await prepareWithAuth(block("GET http://h/{{$auth.token(\"kc\")}}", "Authorization: openid client_credentials local", 'X-Sig: {{$auth.token("aws")}}'), ctx(s.auth, env));
		expect(got.authUsed).toEqual([
			{ environment: "dev", name: "kc", grant: "client_credentials" },
			{ environment: "dev", name: "openid client_credentials local", grant: "client_credentials" },
		]);
	});

	it("passes renew on (after a 401)", async () => {
		const s = standIn({});
		await prepareWithAuth(block("GET http://h/x", "Authorization: openid client_credentials local"), ctx(s.auth, env), { renew: true });
		expect(s.configured.map((c) => c.renew)).toEqual([true]);
	});

	it("names a missing variable and asks for no token", async () => {
		const s = standIn({});
		const got = await prepareWithAuth(block("GET http://h/x", "Authorization: openid password local"), ctx(s.auth, env));
		expect(got.ok ? "" : got.error.message).toBe('Auth "openid password local", configuration: Authorization: openid password local needs the variable local_username (set it in the environment or as @local_username = … in the note)');
		expect(s.configured).toEqual([]);
	});

	it("leaves any other Authorization as written", async () => {
		const s = standIn({});
		const got = await prepareWithAuth(block("GET http://h/x", "Authorization: Bearer abc"), ctx(s.auth, env));
		expect(got.ok && got.request.headers).toEqual([["Authorization", "Bearer abc"]]);
		expect(s.configured).toEqual([]);
	});
});
