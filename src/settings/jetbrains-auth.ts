/**
 * JetBrains' auth configurations (`"Security": {"Auth": {"<name>": {…}}}` per environment of
 * http-client.env.json and http-client.private.env.json, read by `{{$auth.token("<name>")}}`) as
 * `[environments.<env>.auth.<name>]` tables of user.toml, as far as they map (docs/auth.md). Pure:
 * JSON in, tables, the secret ids to fill in and one note per key that does not map out. A secret
 * (Client Secret, Password) is never carried over: it becomes a `{ secret = "id" }` reference.
 */
import { patchToml, readToml, setTomlValue, type PatchValue } from "./toml-patch";

export interface ImportedAuth {
	env: string;
	name: string;
	/** user.toml keys and values, in the order written. */
	values: Array<[string, PatchValue]>;
}

export interface AuthImport {
	configs: ImportedAuth[];
	/** The secrets the tables reference, to be given a value in the environment's settings. */
	secrets: Array<{ env: string; name: string; key: string; id: string }>;
	/** What was not carried over, and why: one line per key. */
	notes: Array<{ env: string; name: string; key: string; message: string }>;
}

const GRANTS: Readonly<Record<string, string>> = {
	"Client Credentials": "client_credentials",
	Password: "password",
	"Authorization Code": "authorization_code",
	"Device Authorization": "device_code",
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Public and private files merged per environment, key by key (the private file wins, as in the IDE). */
function merged(publicEnv: unknown, privateEnv: unknown): Record<string, Json> {
	const out: Record<string, Json> = {};
	for (const file of [publicEnv, privateEnv]) if (isObject(file)) for (const [env, vars] of Object.entries(file)) if (isObject(vars)) out[env] = deepMerge(out[env] ?? {}, vars);
	return out;
}

function deepMerge(a: Json, b: Json): Json {
	const out: Json = { ...a };
	for (const [k, v] of Object.entries(b)) out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k], v) : v;
	return out;
}

/** A secret id Obsidian's secret storage takes: lower case, digits and dashes. */
const secretId = (...parts: string[]) =>
	parts
		.join("-")
		.toLowerCase()
		.replace(/[^a-z0-9-]+/g, "-")
		.replace(/-+/g, "-")
		.replace(/^-|-$/g, "");

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(:\d+)?(\/[^?#]*)?$/;

/** Every auth configuration of the env files, mapped. `$shared` variables fill `{{…}}` in every environment. */
export function jetbrainsAuthImport(publicEnv: unknown, privateEnv?: unknown): AuthImport {
	const envs = merged(publicEnv, privateEnv);
	const shared = envs.$shared ?? {};
	const result: AuthImport = { configs: [], secrets: [], notes: [] };
	for (const [env, vars] of Object.entries(envs)) {
		if (env === "$shared") continue;
		const security = vars.Security;
		const auths = isObject(security) && isObject(security.Auth) ? security.Auth : {};
		for (const [name, auth] of Object.entries(auths)) {
			const note = (key: string, message: string) => result.notes.push({ env, name, key, message });
			if (!isObject(auth)) {
				note("", "is not an object: skipped");
				continue;
			}
			const variables = { ...stringsOf(shared), ...stringsOf(vars) };
			const mapped = mapConfig(env, name, auth, variables, note);
			if (!mapped) continue;
			result.configs.push({ env, name, values: mapped.values });
			result.secrets.push(...mapped.secrets.map((s) => ({ env, name, ...s })));
		}
	}
	return result;
}

const stringsOf = (vars: Json): Record<string, string> => Object.fromEntries(Object.entries(vars).filter((e): e is [string, string] => typeof e[1] === "string"));

function mapConfig(env: string, name: string, auth: Json, variables: Record<string, string>, note: (key: string, message: string) => void): { values: Array<[string, PatchValue]>; secrets: Array<{ key: string; id: string }> } | null {
	if (auth.Type !== "OAuth2") {
		note("Type", `${JSON.stringify(auth.Type)} is not supported (only OAuth2): the configuration was skipped`);
		return null;
	}
	const grant = typeof auth["Grant Type"] === "string" ? GRANTS[auth["Grant Type"]] : undefined;
	if (!grant) {
		note("Grant Type", `${JSON.stringify(auth["Grant Type"])} is not supported (use ${Object.keys(GRANTS).join(", ")}): the configuration was skipped`);
		return null;
	}
	const values: Array<[string, PatchValue]> = [
		["type", "oauth2"],
		["grant", grant],
	];
	const secrets: Array<{ key: string; id: string }> = [];
	/** A text value with its `{{variables}}` filled from the environment; undefined (and a note) when one is not defined there. */
	const text = (key: string, v: unknown): string | undefined => {
		if (typeof v !== "string" || v === "") {
			note(key, `must be a non-empty string (got ${JSON.stringify(v)}): not carried over`);
			return undefined;
		}
		let missing: string | undefined;
		const filled = v.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (whole, ref: string) => variables[ref] ?? ((missing ??= ref), whole));
		if (missing === undefined) return filled;
		note(key, `uses {{${missing}}}, which the env files do not define: not carried over, write it in user.toml`);
		return undefined;
	};
	const secret = (key: string, tomlKey: string, idPart: string) => {
		const id = secretId(env, name, idPart);
		values.push([tomlKey, { secret: id }]);
		secrets.push({ key: tomlKey, id });
	};
	const targets = (key: string, v: unknown): void => {
		const value = isObject(v) ? v.Value : v;
		const list = (Array.isArray(value) ? value : [value]).map((x) => text(key, x));
		if (list.some((x) => x === undefined) || list.length === 0) return;
		if (key.toLowerCase() === "audience") values.push(["audience", list.join(" ")]);
		else values.push(["resource", list as string[]]);
	};
	const clientCredentials = auth["Client Credentials"];
	for (const [key, v] of Object.entries(auth)) {
		switch (key) {
			case "Type":
			case "Grant Type":
				break;
			case "Token URL":
			case "Auth URL":
			case "Device Auth URL":
			case "Client ID":
			case "Scope":
			case "Username": {
				const value = text(key, v);
				const tomlKey = { "Token URL": "token_url", "Auth URL": "auth_url", "Device Auth URL": "device_url", "Client ID": "client_id", Scope: "scope", Username: "username" }[key];
				if (value !== undefined) values.push([tomlKey, value]);
				break;
			}
			case "Redirect URL": {
				const value = text(key, v);
				if (value !== undefined && LOOPBACK.test(value)) values.push(["redirect_uri", value]);
				else if (value !== undefined) note(key, `${JSON.stringify(value)} is not a loopback address (http://127.0.0.1, [::1] or localhost): the default loopback redirect is used; register it with the provider`);
				break;
			}
			case "Client Secret":
				if (clientCredentials === "none") note(key, 'is not sent ("Client Credentials": "none"): not carried over');
				else secret(key, "client_secret", "client-secret");
				break;
			case "Password":
				secret(key, "password", "password");
				break;
			case "Client Credentials":
				if (v === "in body") values.push(["client_auth", "post"]);
				else if (v !== "basic" && v !== "none") note(key, `${JSON.stringify(v)} is not supported (basic, in body or none): HTTP Basic is used`);
				break;
			case "PKCE":
				if (typeof v === "boolean") values.push(["pkce", v]);
				else if (isObject(v)) {
					values.push(["pkce", true]);
					if (v["Code Challenge Method"] !== undefined && v["Code Challenge Method"] !== "SHA-256" && v["Code Challenge Method"] !== "S256") note(`${key}.Code Challenge Method`, `${JSON.stringify(v["Code Challenge Method"])} is not supported: S256 is always used`);
					if (v["Code Verifier"] !== undefined) note(`${key}.Code Verifier`, "a fixed verifier is not supported: a new one is made for each sign-in");
				} else note(key, `must be true, false or an object (got ${JSON.stringify(v)}): not carried over`);
				break;
			case "Audience":
			case "Resource":
				targets(key, v);
				break;
			case "Custom Request Parameters":
				if (!isObject(v)) {
					note(key, "must be an object: not carried over");
					break;
				}
				for (const [param, pv] of Object.entries(v)) {
					if (param === "audience" || param === "resource") targets(param, pv);
					else note(`${key}.${param}`, "custom request parameters other than audience and resource are not supported: not carried over");
				}
				break;
			case "Use ID Token":
				if (v === true) note(key, `write {{$auth.idToken("${name}")}} where the requests use {{$auth.token("${name}")}}`);
				break;
			case "Acquire Automatically":
				if (v === false) note(key, "is not supported: a token is always fetched when a block needs one");
				break;
			default:
				note(key, "is not supported: not carried over");
		}
	}
	return { values, secrets };
}

export type AuthImportWrite = { ok: true; text: string; written: ImportedAuth[]; kept: ImportedAuth[] } | { ok: false; message: string };

/**
 * Adds the imported tables to user.toml's text, changing nothing else; a configuration of the
 * same environment and name already there is kept as it is (listed in `kept`), never overwritten.
 */
export function writeAuthImport(toml: string, imported: AuthImport): AuthImportWrite {
	const read = readToml(toml);
	if (!read.ok) return { ok: false, message: `user.toml does not parse, so it was not changed: ${read.message}` };
	const doc = read.doc;
	const exists = (env: string, name: string) => {
		const envs = doc.environments;
		const table = isObject(envs) ? envs[env] : undefined;
		return isObject(table) && isObject(table.auth) && table.auth[name] !== undefined;
	};
	const written = imported.configs.filter((c) => !exists(c.env, c.name));
	const kept = imported.configs.filter((c) => exists(c.env, c.name));
	const patched = patchToml(toml, (text) => written.reduce((t, c) => c.values.reduce((u, [key, value]) => setTomlValue(u, ["environments", c.env, "auth", c.name, key], value), t), text));
	return patched.ok ? { ok: true, text: patched.text, written, kept } : patched;
}
