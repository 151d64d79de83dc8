import type { NoteBlock } from "../../blocks";
import { prepareRequest, type Preparation, type PrepareContext } from "../prepare";
import type { RunAuth } from "./run-auth";

/**
 * The auth configurations a block's request names — in its text, or through a variable whose
 * value holds `{{$auth.token(…)}}` — found by preparing it once with every token stood in for.
 */
export function authNamesOf(block: NoteBlock, ctx: PrepareContext): string[] {
	if (!ctx.auth) return [];
	const names = new Set<string>();
	const probe: RunAuth = {
		...ctx.auth,
		lookup: (ref) => {
			names.add(ref.name);
			return { ok: true, value: "" };
		},
	};
	prepareRequest(block, { ...ctx, auth: probe });
	return [...names];
}

export type AuthPreparation = Preparation & { authNames: string[] };

/**
 * The prepare step of a run: the tokens the block names fetched or renewed first (the one place a
 * token is fetched), then the request resolved with them. `renew` asks for new tokens even when
 * the kept ones look fresh (after a 401).
 */
export async function prepareWithAuth(block: NoteBlock, ctx: PrepareContext, opts: { renew?: boolean; signal?: AbortSignal } = {}): Promise<AuthPreparation> {
	const authNames = authNamesOf(block, ctx);
	if (authNames.length > 0 && ctx.auth) {
		const error = await ctx.auth.acquire(authNames, opts);
		if (error) return { ok: false, error, notRun: [], authNames };
	}
	return { ...prepareRequest(block, ctx), authNames };
}
