import type { BlockLanguage } from "../blocks";
import type { AssertionResult } from "../blocks/assertions";
import { httpFields, type HttpView } from "../runner/http/http-run";
import type { RunSnapshot } from "../runner/result";
import type { KindOutput } from "./kind-output";
import { STREAM_OUTPUT } from "./stream-output";

/** The CLI output of each kind that differs from http's, one line per kind. */
export const KIND_OUTPUTS: { readonly [L in BlockLanguage]?: KindOutput } = {
	sse: STREAM_OUTPUT,
	websocket: STREAM_OUTPUT,
};

/** The output of a kind (a block's or a run's `kind`), if it has its own. */
export function outputOf(kind: string | undefined): KindOutput | undefined {
	return kind === undefined ? undefined : (KIND_OUTPUTS as Readonly<Record<string, KindOutput | undefined>>)[kind];
}

/** A run seen as an http exchange: an http run as it is, a stream by its handshake, another kind by its common fields. */
export function exchangeOf(run: RunSnapshot): HttpView {
	return outputOf(run.kind)?.exchange(run) ?? httpFields(run);
}

/** The `??` results of a run of any kind that has them (http, the streams). */
export function assertionsOf(run: RunSnapshot): AssertionResult[] | undefined {
	return exchangeOf(run).assertions;
}
