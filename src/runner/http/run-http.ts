import { checkAssertions, type HttpNoteBlock } from "../../blocks";
import type { BlockRunContext, KindRunner } from "../kind-runner";
import { executeRequest } from "../executor";
import { withFileParts } from "../file-parts";
import { withClientTls } from "./client-cert-files";
import { referenceSources, type Preparation } from "../prepare";
import type * as AwsSigV4 from "../auth/aws-sigv4";
import { awsAuthorizationAt } from "../auth/aws-form";
import { prepareWithAuth } from "../auth/prepare-with-auth";
import { bodyText, httpFailedBeforeStart, readHttpPath, type HttpResult, type ResponseReaders } from "./http-run";
import { propertyWrites, runSucceeded } from "../note-properties";

/** The block's `??` assertions checked once a response arrived (docs/blocks.md). */
function withAssertions(block: HttpNoteBlock, result: HttpResult): HttpResult {
	const lines = block.http.assertions;
	if (lines.length === 0 || !result.head) return result;
	const noteLine = (k: number) => block.fence.startLine + 2 + k;
	const response = { status: result.head.status, headers: result.head.headers, body: bodyText(result), durationMs: result.timing?.total ?? 0 };
	return { ...result, assertions: checkAssertions(lines.map((a) => ({ line: noteLine(a.line), text: a.text })), response) };
}

/**
 * What a successful run sets with its `# @property` directives (docs/note-memory.md): read from
 * its own response (`{{$.x}}`, or `{{alias.response…}}` with its own alias) and any reference.
 */
function withProperties(block: HttpNoteBlock, ctx: BlockRunContext, result: HttpResult, readers: ResponseReaders): HttpResult {
	const directives = block.http.properties;
	if (directives.length === 0 || !runSucceeded(result)) return result;
	const sources = referenceSources(ctx.prepare);
	const own = block.alias;
	const properties = propertyWrites(directives, {
		ownBody: result.body ? bodyText(result) : undefined,
		sources: { ...sources, alias: (path) => (path.alias === own ? readHttpPath(result, path, readers) : sources.alias(path)) },
		properties: ctx.prepare.properties,
	});
	return { ...result, properties };
}

/** The signer, required by the first request that carries `Authorization: AWS …`: main.js carries it as a text module. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
const signAws: typeof AwsSigV4.signAwsRequest = (request, now) => (require("../auth/aws-sigv4") as typeof AwsSigV4).signAwsRequest(request, now);

/** A prepared request read (`< file` parts, the client certificate), signed (AWS) and sent. */
async function send(prepared: Extract<Preparation, { ok: true }>, ctx: BlockRunContext): Promise<HttpResult> {
	const body = await withFileParts(prepared.request, referenceSources(ctx.prepare), ctx.deps.files, ctx.execute.filePath);
	// Only a block naming a certificate waits to read it, as the stream kinds do: every other request goes on in this task.
	const read = body.ok && body.request.clientCert ? await withClientTls(body.request, ctx.deps.files, ctx.execute.filePath) : body;
	if (!read.ok) return httpFailedBeforeStart(read.error, prepared.request);
	const signed = awsAuthorizationAt(read.request.headers) < 0 ? { ok: true as const, request: read.request } : signAws(read.request, (ctx.deps.now ?? Date.now)());
	if (!signed.ok) return httpFailedBeforeStart(signed.error, prepared.request);
	return executeRequest(signed.request, ctx.deps, { ...ctx.execute, envSnapshot: prepared.envSnapshot });
}

/**
 * An http block: tokens fetched, references resolved into a request, then sent through the
 * transport. `readers`: what its responses' bodies can be read as besides text (`messages` of an
 * event stream), lent by the runner registry.
 */
export function createHttpRunner(readers: ResponseReaders): KindRunner<HttpNoteBlock> {
	return {
		async run(block, ctx) {
			const signal = ctx.execute.signal;
			const prepared = await prepareWithAuth(block, ctx.prepare, { signal });
			if (!prepared.ok) return httpFailedBeforeStart(prepared.error);
			let result = await send(prepared, ctx);
			// A 401 to a request that carried an OAuth token: one new token (refresh, else a new grant) and one retry, never more.
			if (result.state === "done" && result.head?.status === 401 && (prepared.openIdAuth !== undefined || prepared.authNames.some((n) => ctx.prepare.auth?.renewable(n)))) {
				const again = await prepareWithAuth(block, ctx.prepare, { signal, renew: true });
				if (!again.ok) return httpFailedBeforeStart(again.error, result.request);
				result = await send(again, ctx);
			}
			// Which configurations' tokens it carried: the Auth tab reads them from the token cache (never from the result).
			if (prepared.authUsed.length > 0) result = { ...result, authUsed: prepared.authUsed };
			return withProperties(block, ctx, withAssertions(block, result), readers);
		},
		read: (result, path) => readHttpPath(result, path, readers),
	};
}
