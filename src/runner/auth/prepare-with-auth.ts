import { resolveTemplate, type NoteBlock } from "../../blocks";
import { prepareRequest, referenceSources, type Preparation, type PrepareContext } from "../prepare";
import { SECRET_MASK, type PreparedRequest } from "../request";
import { authError } from "./auth-failures";
import { openIdAuth, openIdAuthName, parseOpenIdAuthorization } from "./openid-header";
import type { AuthUse, RunAuth } from "./run-auth";

/**
 * The block prepared, and the auth configurations its request names on the way — in its text, or
 * through a variable whose value holds `{{$auth.token(…)}}`. A token not kept yet stands in as
 * empty, so that every name is found; such a preparation is made again once the tokens are there.
 */
function prepareNotingAuth(block: NoteBlock, ctx: PrepareContext): { prepared: Preparation; authNames: string[] } {
	const auth = ctx.auth;
	if (!auth) return { prepared: prepareRequest(block, ctx), authNames: [] };
	const names = new Set<string>();
	const noting: RunAuth = {
		...auth,
		lookup: (ref) => {
			names.add(ref.name);
			const kept = auth.lookup(ref);
			return kept.ok ? kept : { ok: true, value: "" };
		},
	};
	const prepared = prepareRequest(block, { ...ctx, auth: noting });
	return { prepared, authNames: [...names] };
}

/**
 * `openIdAuth`: the request carried httpyac's `Authorization: openid …` (its token is worth renewing
 * on a 401). `authUsed`: the OAuth configurations whose tokens it carries, as the Auth tab lists them.
 */
export type AuthPreparation = Preparation & { authNames: string[]; openIdAuth?: AuthUse; authUsed: AuthUse[] };

/**
 * The prepare step of a run: the tokens the block names fetched or renewed first (the one place a
 * token is fetched), then the request resolved with them. `renew` asks for new tokens even when
 * the kept ones look fresh (after a 401).
 */
export async function prepareWithAuth(block: NoteBlock, ctx: PrepareContext, opts: { renew?: boolean; signal?: AbortSignal } = {}): Promise<AuthPreparation> {
	// A request that names no configuration is prepared once: its first preparation is the one sent.
	const noted = prepareNotingAuth(block, ctx);
	const authNames = noted.authNames;
	const named = authNames.flatMap((name) => ctx.auth?.use(name) ?? []);
	let prepared = noted.prepared;
	if (authNames.length > 0 && ctx.auth) {
		const error = await ctx.auth.acquire(authNames, opts);
		if (error) return { ok: false, error, notRun: [], authNames, authUsed: named };
		prepared = prepareRequest(block, ctx);
	}
	if (!prepared.ok) return { ...prepared, authNames, authUsed: named };
	const withOpenId = await withOpenIdToken(prepared, ctx, opts);
	return { ...withOpenId, authNames, authUsed: withOpenId.openIdAuth ? [...named, withOpenId.openIdAuth] : named };
}

/**
 * httpyac's `Authorization: openid <grant> <prefix>` replaced by `Bearer <access token>`, the
 * token got (or kept) for the configuration its `<prefix>_*` variables describe. A variable
 * missing is an error before anything is sent. The token is masked wherever the request is shown.
 */
async function withOpenIdToken(prepared: Extract<Preparation, { ok: true }>, ctx: PrepareContext, opts: { renew?: boolean; signal?: AbortSignal }): Promise<Preparation & { openIdAuth?: AuthUse }> {
	const request = prepared.request;
	const at = request.headers.findIndex(([n, v]) => n.toLowerCase() === "authorization" && parseOpenIdAuthorization(v) !== null);
	if (at < 0) return prepared;
	const header = parseOpenIdAuthorization(request.headers[at][1]);
	if (!header) return prepared;
	const name = openIdAuthName(header);
	const sources = referenceSources(ctx);
	let unresolved: string | undefined;
	// A variable's value may itself hold references (`{{host}}/token`): resolved as anywhere else.
	const variable = (v: string): string | undefined => {
		const raw = sources.variable(v);
		if (raw === undefined) return undefined;
		const resolved = resolveTemplate(raw, sources);
		if (resolved.errors.length > 0) unresolved ??= `${v}: ${resolved.errors[0].message}`;
		return resolved.value;
	};
	const mapped = openIdAuth(header, variable);
	const fail = (reason: string) => ({ ok: false as const, error: authError(name, { step: "configuration", reason }), notRun: [] });
	if (unresolved !== undefined) return fail(unresolved);
	if (!mapped.ok) return fail(mapped.reason);
	if (!ctx.auth) return fail("this run has no token store");
	const got = await ctx.auth.tokenFor(mapped.auth, opts);
	if (!got.ok) return { ok: false, error: got.error, notRun: [] };
	const bearer = (headers: ReadonlyArray<[string, string]>, value: string): Array<[string, string]> => headers.map(([n, v], i): [string, string] => (i === at ? [n, value] : [n, v]));
	const masked = request.masked ?? shownAsSent(request);
	return {
		...prepared,
		request: {
			...request,
			headers: bearer(request.headers, `Bearer ${got.token}`),
			// The export keeps the written form: it names the variables, never the token.
			masked: { ...masked, headers: bearer(masked.headers, `Bearer ${SECRET_MASK}`) },
		},
		openIdAuth: { environment: ctx.auth.environment, name, grant: mapped.auth.config.grant },
	};
}

/** A request with nothing masked yet, shown as it is sent and exported as written. */
function shownAsSent(request: PreparedRequest): NonNullable<PreparedRequest["masked"]> {
	const url = new URL(request.url);
	return { url: request.url, headers: request.headers, body: request.body, target: url.pathname + url.search, withReferences: { url: request.url, headers: request.headers, body: request.body } };
}
