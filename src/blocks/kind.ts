import type { BlockProblem } from "./problems";

/**
 * One info-string token a block kind understands (docs/blocks.md). `value` tokens are written
 * `key=value`; `flag` tokens are written bare (`ignore_case`) and read as `true`.
 */
export interface TokenSpec<K extends string = string, V = unknown> {
	readonly key: K;
	readonly form: "value" | "flag";
	/** The allowed values when they are a closed list: offered by completion, named in the message. */
	readonly values?: readonly string[];
	/** What a valid value looks like, completing `key "x" is invalid: …` ("use input, output, split"). */
	readonly expects: string;
	/** The value read from its text, or undefined when the text is not a valid value. */
	read(text: string): V | undefined;
}

/** The token values a schema reads; absent keys were not written (defaults apply elsewhere). */
export type TokensOf<S extends readonly TokenSpec[]> = {
	[T in S[number] as T["key"]]?: T extends TokenSpec<string, infer V> ? V : never;
};

/** An alias named inside the content (http's `# @name x`), used when the fence has no `alias=`. */
export interface ContentAlias {
	name: string;
	/** How it is written, for messages: `@name`. */
	directive: string;
	/** 0-based line and column of the directive within the content. */
	line: number;
	column: number;
}

/** The lines of a block's head as the http parser reads them: where `# @after` and `# @import` are written. */
export interface BlockHead {
	readonly lines: ReadonlyArray<{ readonly kind: string; readonly text: string }>;
}

/** What a kind reads from a fence's content. */
export interface ParsedContent<M> {
	model: M;
	/** Problems with 0-based lines and columns within the content; the note maps them to note lines. */
	problems: BlockProblem[];
	alias: ContentAlias | null;
}

/**
 * A block kind: a fence language, the info tokens it understands and a parse of its content.
 * One module per kind in `src/blocks` exports one of these; `src/blocks/kinds.ts` lists them.
 * Everything else about a block (fence, info string, aliases, references, problems on note
 * lines) is the note's job and the same for every kind.
 */
export interface BlockKind<L extends string = string, S extends readonly TokenSpec[] = readonly TokenSpec[], M = unknown> {
	/**
	 * The kind's name, lower-case ("http"): the `kind` of its blocks and results, the key of its
	 * model (`block.http`) and of its registry entries; also its fence language unless `fence`
	 * names another. Matched case-insensitively against what is written.
	 */
	readonly language: L;
	/**
	 * The fence language its blocks are written in, when it shares another kind's fence (sse and
	 * websocket blocks are ```http fences, as the peers write them in `.http` files).
	 */
	readonly fence?: string;
	/**
	 * For a kind sharing a fence: whether this content is one of its blocks (sse: the request
	 * line says `SSE`). Fences are matched against `BLOCK_KINDS` in order, so a claiming kind is
	 * listed before the kind it shares the fence with. Cheap and pure: every fence asks.
	 */
	claims?(content: string, lines?: readonly string[]): boolean;
	/** The info tokens, in canonical order: a rewritten fence line lists them in this order. */
	readonly tokens: S;
	/**
	 * True when `alias=` names another block rather than this fence (a pinned response names the
	 * block it belongs to): the fence then has no alias, and the note's unique-alias rule skips it.
	 */
	readonly aliasNamesAnother?: boolean;
	/**
	 * Reads the content (the text between the fences, container prefix removed). Pure, never
	 * throws. `lines`, when given, are the content's lines (the fence's): a kind may read them
	 * instead of splitting the content again.
	 */
	parse(content: string, lines?: readonly string[]): ParsedContent<M>;
	/**
	 * What `{{alias.` completion offers after one of its blocks' aliases, in order; absent: the
	 * parts of an http response (`response.body.$.`, `response.status`, `response.headers.`).
	 */
	readonly referenceSuffixes?: readonly string[];
	/** Its blocks' head, read for `# @after` and `# @import` (a stream's handshake request); absent: none. */
	head?(model: M): BlockHead;
	/**
	 * Whether running the block may change what the server holds, so that a parallel run keeps it
	 * in its place in the note (docs/blocks.md, "Running blocks in parallel"); absent: never.
	 */
	changesState?(model: M): boolean;
}

/** Declares a kind with its literal types kept (language, token keys and values, model). */
export function defineKind<L extends string, const S extends readonly TokenSpec[], M>(kind: BlockKind<L, S, M>): BlockKind<L, S, M> {
	return kind;
}
