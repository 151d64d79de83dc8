/** A problem found in a block. `line` is 0-based: within the block content, or in the note once mapped. */
export interface BlockProblem {
	code: ProblemCode;
	message: string;
	line: number;
	severity: "error" | "warning";
}

export type ProblemCode =
	| "duplicate_token"
	| "invalid_token_value"
	| "unknown_token"
	| "duplicate_alias"
	| "empty_block"
	| "missing_request_line"
	| "unknown_method"
	| "missing_url"
	| "invalid_header"
	| "invalid_reference"
	| "unterminated_fence"
	| "unclosed_handler";

export function error(code: ProblemCode, message: string, line: number): BlockProblem {
	return { code, message, line, severity: "error" };
}

export function warning(code: ProblemCode, message: string, line: number): BlockProblem {
	return { code, message, line, severity: "warning" };
}

export function hasErrors(problems: readonly BlockProblem[]): boolean {
	return problems.some((p) => p.severity === "error");
}
