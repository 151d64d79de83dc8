/**
 * One text per failure code: every transport (node, fetch, obsidian), the preparation of a
 * request and the executor take their message from here, so a code reads the same in the
 * panel, the CLI and history. The specifics (the system's error, the byte count) go in `detail`.
 * A few texts name their subject (the URL, the method): those take it as a parameter.
 * `[cancelled]`, `Request cancelled`, `[body_too_large]` are the exact texts the docs name.
 */
const TEXT = {
	connect_failed: "Failed to connect",
	body_too_large: "[body_too_large]",
	invalid_token: "Invalid HTTP token",
	too_many_redirects: "Too many redirects",
	/** The connection broke off after the request went out (reset, or closed before the body ended). */
	protocol_error: "The server closed the connection before the response ended",
	/** The request could not be put on the wire (Node refused it before connecting). */
	request_failed: "Could not send the request",
	/** The body arrived but its Content-Encoding (gzip, deflate, br) could not be undone. */
	decode_failed: "Could not decode the response body",
	/** fetch refuses a body on GET and HEAD. */
	body_not_allowed: (method: string) => `A ${method} request cannot have a body with the fetch transport`,
	invalid_url: (url: string) => `Invalid URL "${url}"`,
	/** A block's `ClientCert:` through fetch or Obsidian's requestUrl, which take no TLS options. */
	client_cert_unsupported: (transport: string) => `The ${transport} transport cannot present a client certificate: use the node transport (desktop, CLI)`,
	cancelled: "[cancelled]",
	timeout: "Request cancelled",
	// Before anything is sent (run-note.ts, engine.ts). `invalid_block` and `unresolved_reference`
	// carry the block language's own problem text instead (src/blocks/problems.ts).
	dependency_cycle: (cycle: string) => `Reference cycle: ${cycle}`,
	dependency_failed: (cause: string) => `skipped: depends on ${cause}`,
	setup_failed: (why: string) => `Could not run: ${why}`,
	// A `# @prompt` or `# @note` no one could answer (prompt-answers.ts): what the block asks.
	prompt_not_answered: (what: string) => `${what}, and nothing here can ask`,
	// A reference to a secret variable whose secret has no value (http and db blocks alike): the
	// reference as written. The run's code stays `unresolved_reference`.
	unset_secret: (reference: string) => `Secret ${reference} is not set: give it a value in the environment's settings (the CLI reads RUNNABLE_BLOCKS_SECRET_<ID>)`,
	// A `< path` body part (file-parts.ts): the path as written after references.
	body_file_missing: (path: string) => `No file "${path}" for the body`,
	body_file_outside: (path: string) => `The body file "${path}" is outside the vault`,
	// A `ClientCert:` file (client-cert-files.ts), as written.
	cert_file_missing: (path: string) => `No file "${path}" for the client certificate`,
	cert_file_outside: (path: string) => `The client certificate file "${path}" is outside the vault`,
} as const;

type Texts = typeof TEXT;

/** How a run ends in failure (or is cancelled) on the way to the server and back. */
export type FailureCode = Exclude<keyof Texts, "cancelled" | "timeout" | "dependency_cycle" | "dependency_failed" | "setup_failed" | "prompt_not_answered" | "unset_secret" | "body_file_missing" | "body_file_outside" | "cert_file_missing" | "cert_file_outside">;

/** Codes with a fixed text, and those whose text names a subject. */
export type Subject<C extends keyof Texts> = Texts[C] extends (subject: string) => string ? [subject: string] : [];

/** The message of a code (with its subject where the text names one). */
export function failureText<C extends keyof Texts>(code: C, ...subject: Subject<C>): string {
	const text: string | ((s: string) => string) = TEXT[code];
	return typeof text === "function" ? text(subject[0] as string) : text;
}

/** The same failure as a run error, for what fails before anything is sent (preparation). */
export function failedError<C extends keyof Texts>(code: C, detail: string | undefined, ...subject: Subject<C>): { code: C; message: string; detail?: string } {
	return { code, message: failureText(code, ...subject), ...(detail !== undefined ? { detail } : {}) };
}
