import { definesVariablesOnly, fileVariablesFor, kindOf, type AliasPath, type BlockLanguage, type Lookup, type NoteBlock } from "../blocks";
import type * as RunDb from "./db/run-db";
import type * as RunHttp from "./http/run-http";
import type * as RunSse from "./stream/run-sse";
import type * as RunWebsocket from "./stream/run-websocket";
import { onFirstUse, type BlockRunContext, type KindExport, type KindRunner, type Prepared, type SnippetOptions } from "./kind-runner";
import { aliasBlocks, invalidBlock, prepareRequest, type Preparation, type PrepareContext, type RunScope } from "./prepare";
import { prepareStreamExport } from "./stream/prepare-stream";
import type * as ReadMessages from "./stream/read-messages";
import type { ResponseReaders } from "./http/http-run";
import { failedBeforeStart, type BlockResult, type KindOptions } from "./result";
import type * as Poll from "./poll";
import { exported, formatNotOffered, type Exported } from "./snippets/quote";
import type * as Generators from "./snippets/generators";
import type * as StreamSnippets from "./snippets/stream-snippets";

type RunnerRegistry = { readonly [L in BlockLanguage]?: KindRunner<Extract<NoteBlock, { kind: L }>> };

/* eslint-disable @typescript-eslint/no-require-imports -- each kind's engine is required on its first block (onFirstUse), its snippet writer on its first export, its reader on its first read */
const generators = () => require("./snippets/generators") as typeof Generators;
const streamSnippets = () => require("./snippets/stream-snippets") as typeof StreamSnippets;
const streamReader = () => require("./stream/read-messages") as typeof ReadMessages;

/**
 * What an http response's body can be read as besides text, by the media type that says so, one
 * line per kind that reads it: lent to the http runner (`{{alias.response.messages…}}`).
 */
const RESPONSE_READERS: ResponseReaders = {
	"text/event-stream": (body, selector, label) => streamReader().readEventStreamMessages(body, selector, label),
};

/**
 * The runner of each kind, one line per kind, with its export when it exports: its preparation,
 * its formats and its snippet writer (docs/export.md). A kind without a runner is never run (its
 * blocks are read, or shown).
 */
export const BLOCK_RUNNERS: RunnerRegistry = {
	http: onFirstUse(() => (require("./http/run-http") as typeof RunHttp).createHttpRunner(RESPONSE_READERS), { prepare: prepareRequest, name: "http", formats: ["curl", "fetch", "python", "httpie", "http"] satisfies Generators.HttpFormat[], writer: () => generators().HTTP_SNIPPETS }, { sendsThroughTransport: true }),
	db: onFirstUse(() => (require("./db/run-db") as typeof RunDb).DB_RUNNER),
	sse: onFirstUse(() => (require("./stream/run-sse") as typeof RunSse).SSE_RUNNER, { prepare: prepareStreamExport, name: "SSE", formats: ["curl", "http"] satisfies StreamSnippets.SseFormat[], writer: () => streamSnippets().SSE_SNIPPETS }, { sendsThroughTransport: true }),
	websocket: onFirstUse(() => (require("./stream/run-websocket") as typeof RunWebsocket).WEBSOCKET_RUNNER, { prepare: prepareStreamExport, name: "WebSocket", formats: ["websocat", "ws", "http"] satisfies StreamSnippets.WebsocketFormat[], writer: () => streamSnippets().WEBSOCKET_SNIPPETS }),
};
/* eslint-enable @typescript-eslint/no-require-imports -- only those */

/** A kind's runner, its block type erased: `block.kind` (or `result.kind`) picks the entry of that kind. */
type AnyRunner = Omit<KindRunner<NoteBlock>, "run" | "read" | "export"> & { run(block: NoteBlock, ctx: BlockRunContext): Promise<BlockResult>; read(result: BlockResult, path: AliasPath): Lookup; export?: KindExport<NoteBlock> };

function runnerFor(kind: string): AnyRunner | undefined {
	return (BLOCK_RUNNERS as Readonly<Record<string, AnyRunner | undefined>>)[kind];
}

/**
 * Whether Run runs the block: its kind has a runner and the fence sends something (one of only
 * `@name = value` lines is read by the blocks below it, never run). Validity is not asked: an
 * invalid block runs, to fail saying why. The plugin's and the CLI's run all pick blocks with it.
 */
export function isRunnable(block: NoteBlock): boolean {
	return runnerFor(block.kind) !== undefined && !definesVariablesOnly(block);
}

/** The fence languages of the kinds that run, each once, in the registry's order (http and db: the stream kinds are ```http fences). */
export function runnableFences(): string[] {
	return [...new Set(Object.keys(BLOCK_RUNNERS).map((kind) => kindOf(kind)?.fence ?? kind))];
}

/** Loads the engine of `kind` (a text module, see onFirstUse) if it is not loaded yet. */
export function loadRunner(kind: string): void {
	runnerFor(kind)?.load?.();
}

/** Whether blocks of `kind` send through the host's HTTP transport (a db or WebSocket block does not). */
export function sendsThroughTransport(kind: string): boolean {
	return runnerFor(kind)?.sendsThroughTransport === true;
}

/** Whether the block's kind exports to snippets (its runner has `export`): export offers only those. */
export function isExportable(block: NoteBlock): boolean {
	return runnerFor(block.kind)?.export !== undefined;
}

/** The kinds that export, in the registry's order. */
export function exportingKinds(): string[] {
	return Object.keys(BLOCK_RUNNERS).filter((kind) => runnerFor(kind)?.export !== undefined);
}

/** The formats a kind exports to, in its order; none for a kind without an export. */
export function snippetFormats(kind: string): readonly string[] {
	return runnerFor(kind)?.export?.formats ?? [];
}

/** Every kind's formats, each once, in the registry's order: what the CLI's `--format` takes. */
export function allSnippetFormats(): string[] {
	return [...new Set(exportingKinds().flatMap(snippetFormats))];
}

/** The block prepared for export by its kind; a kind without an export fails, saying so. */
export function prepareExport(block: NoteBlock, ctx: PrepareContext): Preparation {
	return runnerFor(block.kind)?.export?.prepare(block, ctx) ?? { ok: false, error: { code: "invalid_block", message: `A ${block.kind} block has no export` }, notRun: [] };
}

/**
 * A prepared block as a snippet, written by its kind's writer (loaded here, on the first export),
 * or why not: a format its kind does not export to, or a request that format cannot carry.
 */
export function writeSnippet(block: NoteBlock, format: string, prepared: Prepared, opts: SnippetOptions = {}): Exported {
	const exports = runnerFor(block.kind)?.export;
	if (!exports || !exports.formats.includes(format)) return formatNotOffered(exports?.name ?? block.kind, exports?.formats ?? [], format);
	return exported(() => exports.writer().snippet(format, prepared, block.alias, opts));
}

/** A prepared block's request lines in a `.http` file, as its kind writes them (`forFile`: into the vault). */
export function httpFileLines(block: NoteBlock, prepared: Prepared, forFile: boolean): string[] {
	const exports = runnerFor(block.kind)?.export;
	if (!exports) throw new Error(`a ${block.kind} block has no export: ask isExportable first`);
	return exports.writer().httpFileLines(prepared, forFile);
}

/**
 * Runs one block with its kind's runner; a kind with none fails before anything is sent, saying
 * why. A block with `# @poll` runs its attempts through `pollBlock`.
 */
export function runBlock(block: NoteBlock, ctx: BlockRunContext): Promise<BlockResult> {
	const once = (c: BlockRunContext) => runnerFor(block.kind)?.run(block, c) ?? Promise.resolve(failedBeforeStart(invalidBlock(block)));
	if (block.kind !== "http" || block.http.poll === null || !block.runnable) return once(ctx);
	// The poll is a text module, evaluated by the first polled block (docs/architecture.md, "Text modules").
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
	const { pollBlock, timerSleeper } = require("./poll") as typeof Poll;
	return pollBlock(block.http.poll, block.http.method, ctx, once, { now: ctx.deps.now ?? Date.now, sleep: ctx.deps.sleep ?? timerSleeper });
}

/** Whether references read a target's run asked with these options (a db block's EXPLAIN is not its rows). */
export function keepsForReferences(block: NoteBlock, options: Partial<KindOptions> | undefined): boolean {
	return !options || (runnerFor(block.kind)?.keepsForReferences?.(options) ?? true);
}

/** `{{alias.…}}` read from a finished run by its kind's reader. */
export function readResult(result: BlockResult, path: AliasPath): Lookup {
	const runner = result.kind ? runnerFor(result.kind) : undefined;
	if (!runner) return { ok: false, message: `block "${path.alias}" ended ${result.state}${result.error ? ` (${result.error.message})` : ""}, so it has nothing to read` };
	return runner.read(result, path);
}

/**
 * What a block's references read, in its note and a run's scope: variables of the block, of the
 * fences above it and of the environment, the aliases' last results, read by their kinds. The one
 * place a prepare context is made (the engine's run and `engine.prepare`), so every export resolves
 * a block as Run does.
 */
export function prepareContext(note: readonly NoteBlock[], block: NoteBlock, scope: RunScope, aliases: ReadonlySet<string> = new Set(aliasBlocks(note).keys())): PrepareContext {
	return {
		env: scope.env,
		fileVariables: fileVariablesFor(note, block),
		aliases,
		result: (alias) => scope.results.get(alias),
		read: readResult,
		entropy: scope.entropy,
		defaultTimeoutMs: scope.defaultTimeoutMs,
		secretNames: scope.secrets?.names,
		unsetSecrets: scope.secrets?.unset,
		auth: scope.auth,
		notes: scope.notes,
		imports: scope.imports,
		properties: scope.properties,
	};
}
