import { checkAssertions, type HttpNoteBlock } from "../../blocks";
import type { KindRunner } from "../kind-runner";
import { executeRequest } from "../executor";
import { withFileParts } from "../file-parts";
import { prepareRequest, referenceSources } from "../prepare";
import { bodyText, httpFailedBeforeStart, readHttpPath, type HttpResult } from "./http-run";

/** The block's `??` assertions checked once a response arrived (docs/blocks.md). */
function withAssertions(block: HttpNoteBlock, result: HttpResult): HttpResult {
	const lines = block.http.assertions;
	if (lines.length === 0 || !result.head) return result;
	const noteLine = (k: number) => block.fence.startLine + 2 + k;
	const response = { status: result.head.status, headers: result.head.headers, body: bodyText(result), durationMs: result.timing?.total ?? 0 };
	return { ...result, assertions: checkAssertions(lines.map((a) => ({ line: noteLine(a.line), text: a.text })), response) };
}

/** An http block: references resolved into a request, then sent through the transport. */
export const HTTP_RUNNER: KindRunner<HttpNoteBlock> = {
	async run(block, ctx) {
		const prepared = prepareRequest(block, ctx.prepare);
		if (!prepared.ok) return httpFailedBeforeStart(prepared.error);
		const read = await withFileParts(prepared.request, referenceSources(ctx.prepare), ctx.deps.files, ctx.execute.filePath);
		if (!read.ok) return httpFailedBeforeStart(read.error, prepared.request);
		const result = await executeRequest(read.request, ctx.deps, { ...ctx.execute, envSnapshot: prepared.envSnapshot });
		return withAssertions(block, result);
	},
	read: readHttpPath,
};
